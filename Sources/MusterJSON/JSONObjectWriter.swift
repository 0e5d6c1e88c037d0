/// Writes one object member by member, for the few hot writers that lay out their fields by hand
/// (the stored envelope). Members given in key order are written as they come; otherwise the
/// object is put in order when it closes, as the encoder does.
package struct JSONObjectWriter {
    let state: EncodingState
    let id: Int

    package mutating func string(_ key: String, _ value: String?) throws {
        guard let value else { return }
        try begin(key)
        state.writeStringValue(value)
    }

    package mutating func int(_ key: String, _ value: Int?) throws {
        guard let value else { return }
        try begin(key)
        state.writeInteger(value)
    }

    /// A `UInt64` (a log sequence) as the encoder writes one: digit by digit up to `Int.max`, past it through `Codable`.
    package mutating func int(_ key: String, _ value: UInt64?) throws {
        guard let value else { return }
        guard let int = Int(exactly: value) else { return try encode(key, value) }
        try self.int(key, int)
    }

    /// A finite number in its shortest exact form; NaN and the infinities are an `EncodingError`.
    package mutating func double(_ key: String, _ value: Double?) throws {
        guard let value else { return }
        try begin(key)
        try state.writeFloat(value, [JSONKey(stringValue: key)])
    }

    package mutating func bool(_ key: String, _ value: Bool?) throws {
        guard let value else { return }
        try begin(key)
        state.writeBool(value)
    }

    /// A scalar as the encoder writes the same value (null included); a container is an error.
    package mutating func scalar(_ key: String, _ value: JSONScalar) throws {
        try begin(key)
        switch value {
        case .null: state.writeNull()
        case .bool(let bool): state.writeBool(bool)
        case .integer(let integer): state.writeInteger(integer)
        case .number(let double): try state.writeFloat(double, [JSONKey(stringValue: key)])
        case .string(let string): state.writeStringValue(string)
        case .array, .object:
            throw EncodingError.invalidValue(value, .init(codingPath: [JSONKey(stringValue: key)], debugDescription: "a container is no scalar"))
        }
    }

    package mutating func encode<T: Encodable>(_ key: String, _ value: T) throws {
        try begin(key)
        try state.encodeValue(value, parent: nil, key: JSONKey(stringValue: key))
    }

    /// A nested object whose members `body` writes.
    package mutating func object(_ key: String, _ body: (inout JSONObjectWriter) throws -> Void) throws {
        try begin(key)
        var child = JSONObjectWriter(state: state, id: state.open(object: true))
        try body(&child)
        state.close(child.id)
    }

    /// An array of objects, one per element, whose members `body` writes.
    package mutating func objects<S: Sequence>(_ key: String, _ elements: S, _ body: (inout JSONObjectWriter, S.Element) throws -> Void) throws {
        try begin(key)
        let array = state.open(object: false)
        for element in elements {
            do { _ = try state.beginElement(array) } catch { throw error.encodingError([JSONKey(stringValue: key)]) }
            var child = JSONObjectWriter(state: state, id: state.open(object: true))
            try body(&child, element)
            state.close(child.id)
        }
        state.close(array)
    }

    /// An array of strings, in the sequence's order.
    package mutating func strings<S: Sequence<String>>(_ key: String, _ values: S) throws {
        try begin(key)
        let array = state.open(object: false)
        for value in values {
            do { _ = try state.beginElement(array) } catch { throw error.encodingError([JSONKey(stringValue: key)]) }
            state.writeStringValue(value)
        }
        state.close(array)
    }

    private func begin(_ key: String) throws {
        do { try state.beginEntry(id, key: key) } catch { throw error.encodingError([JSONKey(stringValue: key)]) }
    }
}

/// A value MusterJSON writes member by member instead of through its `Encodable` conformance
/// (which other encoders still use), where it is written whole: at the top level, and as a stored
/// event's `data`. For the few big answers and events of hot paths; its members must come out as
/// the conformance writes them, and a test holds the bytes equal.
package protocol JSONObjectEncodable: Encodable {
    func encodeMembers(_ object: inout JSONObjectWriter) throws
}

extension JSONBytesEncoder {
    /// One object whose members `body` writes.
    package func encodeObject(_ body: (inout JSONObjectWriter) throws -> Void) throws -> [UInt8] {
        try withObject(body) { $0.out.array }
    }

    /// Writes one object whose members `body` writes, and hands the finished output to `result`.
    func withObject<R>(_ body: (inout JSONObjectWriter) throws -> Void, _ result: (EncodingState) -> R) throws -> R {
        let state = EncodingState(sortedKeys: sortedKeys, escapesSlashes: escapesSlashes)
        var writer = JSONObjectWriter(state: state, id: state.open(object: true))
        try body(&writer)
        state.closeAll()
        return result(state)
    }
}
