/// The encoder of one value: it opens an object or an array in the output, or writes one value.
final class ValueEncoder: Encoder, SingleValueEncodingContainer {
    let state: EncodingState
    let parent: ValueEncoder?
    let key: (any CodingKey)?
    /// The container this value opened, if any.
    private var opened: Int?

    init(state: EncodingState, parent: ValueEncoder?, key: (any CodingKey)?) {
        self.state = state
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: ValueEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let id = opened ?? state.open(object: true)
        opened = id
        return KeyedEncodingContainer(KeyedStreamContainer<Key>(encoder: self, id: id))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let id = opened ?? state.open(object: false)
        opened = id
        return UnkeyedStreamContainer(encoder: self, id: id)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    func encodeNil() { state.writeNull() }
    func encode(_ value: Bool) { state.writeBool(value) }
    func encode(_ value: String) { state.writeStringValue(value) }
    func encode(_ value: Double) throws { try state.writeFloat(value, codingPath) }
    func encode(_ value: Float) throws { try state.writeFloat(value, codingPath) }
    func encode(_ value: Int) { state.writeInteger(value) }
    func encode(_ value: Int8) { state.writeInteger(value) }
    func encode(_ value: Int16) { state.writeInteger(value) }
    func encode(_ value: Int32) { state.writeInteger(value) }
    func encode(_ value: Int64) { state.writeInteger(value) }
    func encode(_ value: UInt) { state.writeInteger(value) }
    func encode(_ value: UInt8) { state.writeInteger(value) }
    func encode(_ value: UInt16) { state.writeInteger(value) }
    func encode(_ value: UInt32) { state.writeInteger(value) }
    func encode(_ value: UInt64) { state.writeInteger(value) }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

/// Writes `"key":value` pairs into the object `id`.
struct KeyedStreamContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let id: Int

    var codingPath: [any CodingKey] { encoder.codingPath }
    private var state: EncodingState { encoder.state }

    private func begin(_ key: Key) throws {
        do { try state.beginEntry(id, key: key.stringValue) } catch { throw error.encodingError(codingPath + [key]) }
    }

    mutating func encodeNil(forKey key: Key) throws { try begin(key); state.writeNull() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try begin(key); state.writeBool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try begin(key); state.writeStringValue(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try begin(key); try state.writeFloat(value, codingPath + [key]) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try begin(key); try state.writeFloat(value, codingPath + [key]) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try begin(key); state.writeInteger(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try begin(key); state.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try state.encodeValue(value, parent: encoder, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // Not throwing here: a failure shows at the next write, which throws.
        try? begin(key)
        return ValueEncoder(state: state, parent: encoder, key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        try? begin(key)
        return ValueEncoder(state: state, parent: encoder, key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        try? state.beginEntry(id, key: "super")
        return ValueEncoder(state: state, parent: encoder, key: JSONKey.super)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        try? begin(key)
        return ValueEncoder(state: state, parent: encoder, key: key)
    }
}

/// Writes the elements of the array `id`.
struct UnkeyedStreamContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let id: Int

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.state.count(of: id) }
    private var state: EncodingState { encoder.state }

    @discardableResult
    private func begin() throws -> JSONKey {
        do { return JSONKey(intValue: try state.beginElement(id)) } catch { throw error.encodingError(codingPath) }
    }

    mutating func encodeNil() throws { try begin(); state.writeNull() }
    mutating func encode(_ value: Bool) throws { try begin(); state.writeBool(value) }
    mutating func encode(_ value: String) throws { try begin(); state.writeStringValue(value) }
    mutating func encode(_ value: Double) throws { let key = try begin(); try state.writeFloat(value, codingPath + [key]) }
    mutating func encode(_ value: Float) throws { let key = try begin(); try state.writeFloat(value, codingPath + [key]) }
    mutating func encode(_ value: Int) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try begin(); state.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try begin(); state.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = try begin()
        try state.encodeValue(value, parent: encoder, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = (try? begin()) ?? JSONKey(intValue: count)
        return ValueEncoder(state: state, parent: encoder, key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = (try? begin()) ?? JSONKey(intValue: count)
        return ValueEncoder(state: state, parent: encoder, key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = (try? begin()) ?? JSONKey(intValue: count)
        return ValueEncoder(state: state, parent: encoder, key: key)
    }
}
