/// The members of one scanned object, for the few hot readers that pick their fields by hand (the
/// stored envelope, the most frequent event types) instead of through a `Decodable`. Valid only
/// inside the call that gives it. Reads like `decodeIfPresent`: a missing member and `null` are
/// nil, a member of another type is a `DecodingError` with its path.
package struct JSONFields {
    let decoder: TapeDecoder

    init(decoder: TapeDecoder) { self.decoder = decoder }

    /// The members of the object `decoder` reads, when it is MusterJSON's own decoder: a
    /// `Decodable` whose bulk is read by hand (a request of 500 records) takes this way, and its
    /// synthesized-like reading otherwise (nil). Not an object: the error a keyed container throws.
    package init?(_ decoder: any Decoder) throws {
        guard let tape = decoder as? TapeDecoder else { return nil }
        try tape.expect(.object, [String: Int].self, at: tape.index, key: nil)
        self.decoder = tape
    }

    // The value of the expected kind is read at once; the decoder's general reading (which takes
    // the key as a `CodingKey`, boxed, for its errors) only for anything else.

    /// The string under `key`. When it reads the same as `expected`, it is given back as
    /// `expected` itself: a value every event repeats (an envelope's type or schema) then costs a
    /// compare, not a new string.
    package func string(_ key: StaticString, sharing expected: String? = nil) throws -> String? {
        guard let index = find(key) else { return nil }
        let document = decoder.document
        guard document.tokens[index].kind == .string else { return try decoder.string(at: index, key: JSONKey(key)) }
        // (A string value's token compares as a key's does.)
        if var expected, expected.withUTF8({ document.key(index, equals: $0) }) { return expected }
        return document.string(at: index)
    }

    /// The string under `key` as UTF-8 (unescaped), handed to `body` where it lies: a value the
    /// reader only parses (a timestamp) then makes no `String`.
    package func withString<R>(_ key: StaticString, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        guard let index = find(key) else { return nil }
        let document = decoder.document
        guard document.tokens[index].kind == .string else {
            var text = try decoder.string(at: index, key: JSONKey(key))
            return try text.withUTF8(body)
        }
        guard document.tokens[index].flag else { return try body(document.raw(index)) }
        return try document.unescapedBytes(at: index).withUnsafeBufferPointer(body)
    }

    package func int(_ key: StaticString) throws -> Int? {
        guard let index = find(key) else { return nil }
        let document = decoder.document
        if document.tokens[index].kind == .number, !document.tokens[index].flag, let value = JSONNumbers.integer(Int.self, document.raw(index)) {
            return value
        }
        return try decoder.integer(Int.self, at: index, key: JSONKey(key))
    }

    /// A finite number as `Double` reads it (the nearest value, as Foundation's decoder does).
    package func double(_ key: StaticString) throws -> Double? {
        guard let index = find(key) else { return nil }
        return try decoder.floatingPoint(Double.self, at: index, key: JSONKey(key))
    }

    package func bool(_ key: StaticString) throws -> Bool? {
        guard let index = find(key) else { return nil }
        return try decoder.bool(at: index, key: JSONKey(key))
    }

    /// The object under `key`, read by hand too; nil when missing or null.
    package func object(_ key: StaticString) throws -> JSONFields? {
        guard let index = find(key) else { return nil }
        try decoder.expect(.object, [String: Int].self, at: index, key: JSONKey(key))
        return JSONFields(decoder: decoder.child(index, key: JSONKey(key)))
    }

    /// Each object of the array under `key`, read by hand too; nil when missing or null. An element
    /// that is not an object is the `DecodingError` a `Decodable` array would throw.
    package func objects<R>(_ key: StaticString, _ body: (JSONFields) throws -> R) throws -> [R]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(key)
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

    /// The array of strings under `key`, read by hand; nil when missing or null. An element that is
    /// not a string is the `DecodingError` a `[String]` would throw.
    package func strings(_ key: StaticString) throws -> [String]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(key)
        try decoder.expect(.array, [String].self, at: index, key: name)
        let array = decoder.child(index, key: name), document = decoder.document
        let count = Int(document.tokens[index].count)
        var results: [String] = []
        results.reserveCapacity(count)
        var element = index + 1
        for position in 0..<count {
            results.append(try array.string(at: element, key: JSONKey(intValue: position)))
            element = document.next(after: element)
        }
        return results
    }

    /// The members of the object under `key`, in their stored order, each as a scalar: a map of
    /// plain values (a record's changed fields) read without a `Decodable` per value. Containers
    /// are named (`.array`, `.object`), not read. Nil when missing or null.
    package func scalars(_ key: StaticString) throws -> [(name: String, value: JSONScalar)]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(key)
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
    package func decode<T: Decodable>(_ type: T.Type, _ key: StaticString) throws -> T {
        guard let index = find(key) else { throw missing(key) }
        return try decoder.decodeValue(type, at: index, key: JSONKey(key))
    }

    /// `value`, or the error a `Decodable` throws for a missing required member.
    package func required<T>(_ value: T?, _ key: StaticString) throws -> T {
        guard let value else { throw missing(key) }
        return value
    }

    // The same for the types hand readers ask for most. Not for tidiness: the generic one, called
    // from another module, has the runtime look up `Optional<T>`'s metadata on every call (a fifth
    // of a stored envelope's decode), and these need none.
    package func required(_ value: String?, _ key: StaticString) throws -> String {
        guard let value else { throw missing(key) }
        return value
    }

    package func required(_ value: Int?, _ key: StaticString) throws -> Int {
        guard let value else { throw missing(key) }
        return value
    }

    package func required(_ value: Double?, _ key: StaticString) throws -> Double {
        guard let value else { throw missing(key) }
        return value
    }

    package func required(_ value: Bool?, _ key: StaticString) throws -> Bool {
        guard let value else { throw missing(key) }
        return value
    }

    package func required(_ value: [String]?, _ key: StaticString) throws -> [String] {
        guard let value else { throw missing(key) }
        return value
    }

    package func required(_ value: JSONFields?, _ key: StaticString) throws -> JSONFields {
        guard let value else { throw missing(key) }
        return value
    }

    private func missing(_ key: StaticString) -> DecodingError {
        .keyNotFound(JSONKey(key), .init(codingPath: decoder.codingPath, debugDescription: "No value for key \("\(key)".debugDescription)."))
    }

    /// The value's token under `key`, unless missing or null.
    private func find(_ key: StaticString) -> Int? {
        let document = decoder.document
        // A literal's bytes are read where they lie: no string made, nothing retained.
        guard let index = key.withUTF8Buffer({ document.value(forKey: $0, inObject: decoder.index, cursor: &decoder.cursor) }),
              document.tokens[index].kind != .null else { return nil }
        return index
    }
}

extension JSONBytesDecoder {
    /// Scans `bytes`, which must be one object, and hands its members to `body`.
    package func withFields<R>(of bytes: UnsafeRawBufferPointer, _ body: (JSONFields) throws -> R) throws -> R {
        try withRoot(of: bytes) { root in
            try root.expect(.object, [String: Int].self, at: 0, key: nil)
            return try body(JSONFields(decoder: root))
        }
    }
}
