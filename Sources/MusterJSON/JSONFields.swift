/// The members of one scanned object, for the few hot readers that pick their fields by hand (the
/// stored envelope, the most frequent event types) instead of through a `Decodable`. Valid only
/// inside the call that gives it. Reads like `decodeIfPresent`: a missing member and `null` are
/// nil, a member of another type is a `DecodingError` with its path.
public struct JSONFields {
    let decoder: TapeDecoder

    init(decoder: TapeDecoder) { self.decoder = decoder }

    /// The members of the object `decoder` reads, when it is MusterJSON's own decoder: a
    /// `Decodable` whose bulk is read by hand (a request of 500 records) takes this way, and its
    /// synthesized-like reading otherwise (nil). Not an object: the error a keyed container throws.
    public init?(_ decoder: any Decoder) throws {
        guard let tape = decoder as? TapeDecoder else { return nil }
        try tape.expect(.object, [String: Int].self, at: tape.index, key: nil)
        self.decoder = tape
    }

    public func string(_ key: String) throws -> String? {
        guard let index = find(key) else { return nil }
        return try decoder.string(at: index, key: JSONKey(stringValue: key))
    }

    public func int(_ key: String) throws -> Int? {
        guard let index = find(key) else { return nil }
        return try decoder.integer(Int.self, at: index, key: JSONKey(stringValue: key))
    }

    public func bool(_ key: String) throws -> Bool? {
        guard let index = find(key) else { return nil }
        return try decoder.bool(at: index, key: JSONKey(stringValue: key))
    }

    /// The object under `key`, read by hand too; nil when missing or null.
    public func object(_ key: String) throws -> JSONFields? {
        guard let index = find(key) else { return nil }
        try decoder.expect(.object, [String: Int].self, at: index, key: JSONKey(stringValue: key))
        return JSONFields(decoder: decoder.child(index, key: JSONKey(stringValue: key)))
    }

    /// Each object of the array under `key`, read by hand too; nil when missing or null. An element
    /// that is not an object is the `DecodingError` a `Decodable` array would throw.
    public func objects<R>(_ key: String, _ body: (JSONFields) throws -> R) throws -> [R]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(stringValue: key)
        try decoder.expect(.array, [Any].self, at: index, key: name)
        let array = decoder.child(index, key: name)
        let count = Int(decoder.document.tokens[index].count)
        var results: [R] = []
        results.reserveCapacity(count)
        var element = index + 1
        for position in 0..<count {
            let at = JSONKey(intValue: position)
            try array.expect(.object, [String: Int].self, at: element, key: at)
            results.append(try body(JSONFields(decoder: array.child(element, key: at))))
            element = decoder.document.next(after: element)
        }
        return results
    }

    /// The members of the object under `key`, in their stored order, each as a scalar: a map of
    /// plain values (a record's changed fields) read without a `Decodable` per value. Containers
    /// are named (`.array`, `.object`), not read. Nil when missing or null.
    public func scalars(_ key: String) throws -> [(name: String, value: JSONScalar)]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(stringValue: key)
        try decoder.expect(.object, [String: Int].self, at: index, key: name)
        let object = decoder.child(index, key: name), document = decoder.document
        var members: [(name: String, value: JSONScalar)] = []
        members.reserveCapacity(Int(document.tokens[index].count))
        var member = index + 1
        for _ in 0..<Int(document.tokens[index].count) {
            let memberName = document.string(at: member)
            members.append((memberName, try JSONScalar(object, at: member + 1, key: JSONKey(stringValue: memberName))))
            member = document.next(after: member + 1)
        }
        return members
    }

    /// Decodes the value under `key` with its `Decodable` conformance.
    public func decode<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
        guard let index = find(key) else { throw missing(key) }
        return try decoder.decodeValue(type, at: index, key: JSONKey(stringValue: key))
    }

    /// `value`, or the error a `Decodable` throws for a missing required member.
    public func required<T>(_ value: T?, _ key: String) throws -> T {
        guard let value else { throw missing(key) }
        return value
    }

    private func missing(_ key: String) -> DecodingError {
        .keyNotFound(JSONKey(stringValue: key), .init(codingPath: decoder.codingPath, debugDescription: "No value for key \(key.debugDescription)."))
    }

    /// The value's token under `key`, unless missing or null.
    private func find(_ key: String) -> Int? {
        let document = decoder.document
        guard let index = document.value(forKey: key, inObject: decoder.index, cursor: &decoder.cursor),
              document.tokens[index].kind != .null else { return nil }
        return index
    }
}

extension JSONBytesDecoder {
    /// Scans `bytes`, which must be one object, and hands its members to `body`.
    public func withFields<R>(of bytes: UnsafeRawBufferPointer, _ body: (JSONFields) throws -> R) throws -> R {
        try withRoot(of: bytes) { root in
            try root.expect(.object, [String: Int].self, at: 0, key: nil)
            return try body(JSONFields(decoder: root))
        }
    }
}
