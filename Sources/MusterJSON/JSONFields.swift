/// The members of one scanned object, for the few hot readers that pick their fields by hand (the
/// stored envelope, the most frequent event types) instead of through a `Decodable`. Valid only
/// inside the call that gives it. Reads like `decodeIfPresent`: a missing member and `null` are
/// nil, a member of another type is a `DecodingError` with its path.
package struct JSONFields {
    /// The decoder of this object, or, when it has none of its own, of a value it lies in.
    let decoder: TapeDecoder
    /// The object's token.
    let object: Int
    /// How many levels below `decoder`'s value the object lies (0: it is that value). A nested
    /// object read by hand costs no decoder object (two thirds of the objects in a stored
    /// analytics event); one is made only for an error's coding path or a member read with its
    /// `Decodable`, along the members that lead from `decoder`'s value down to the object.
    let levels: Int

    init(decoder: TapeDecoder) {
        (self.decoder, object, levels) = (decoder, decoder.index, 0)
    }

    private init(decoder: TapeDecoder, object: Int, levels: Int) {
        (self.decoder, self.object, self.levels) = (decoder, object, levels)
    }

    /// The members of the object `decoder` reads, when it is MusterJSON's own decoder: a
    /// `Decodable` whose bulk is read by hand (a request of 500 records) takes this way, and its
    /// synthesized-like reading otherwise (nil). Not an object: the error a keyed container throws.
    package init?(_ decoder: any Decoder) throws {
        guard let tape = decoder as? TapeDecoder else { return nil }
        try tape.expect(.object, [String: Int].self, at: tape.index, key: nil)
        self.init(decoder: tape)
    }

    private var document: JSONDocument { decoder.document }

    /// This object's decoder: `decoder` itself, or made now, one for each member (or element)
    /// from `decoder`'s value down to the object, each under its key as the document spells it.
    private func ownDecoder() -> TapeDecoder {
        let document = document
        var current = decoder
        for _ in 0..<levels {
            let container = document.tokens[current.index]
            // The member whose value spans the object (a container's tokens follow it in a row).
            var (member, position) = (current.index + 1, 0)
            let isObject = container.kind == .object
            while position < Int(container.count) {
                let value = isObject ? member + 1 : member
                let end = document.next(after: value)
                if value <= object, object < end {
                    let key: JSONKey = isObject ? .name(document.string(at: member)) : .position(position)
                    current = TapeDecoder(value, parent: current, depth: current.depth + 1, key: nil, ownKey: key)
                    break
                }
                (member, position) = (end, position + 1)
            }
        }
        return current
    }

    /// The object at `index`, a member or element of this one, without a decoder of its own.
    private func nested(_ index: Int) -> JSONFields {
        JSONFields(decoder: decoder, object: index, levels: levels + 1)
    }

    // The value of the expected kind is read at once; the decoder's general reading (which takes
    // the key as a `CodingKey`, boxed, for its errors) only for anything else.

    /// The string under `key`. When it reads the same as `expected`, it is given back as
    /// `expected` itself: a value every event repeats (an envelope's type or schema) then costs a
    /// compare, not a new string.
    package func string(_ key: StaticString, sharing expected: String? = nil) throws -> String? {
        guard let index = find(key) else { return nil }
        let document = document
        guard document.tokens[index].kind == .string else { return try ownDecoder().string(at: index, key: JSONKey(key)) }
        // (A string value's token compares as a key's does.)
        if var expected, expected.withUTF8({ document.key(index, equals: $0) }) { return expected }
        return document.string(at: index)
    }

    /// The string under `key` as UTF-8 (unescaped), handed to `body` where it lies: a value the
    /// reader only parses (a timestamp) then makes no `String`.
    package func withString<R>(_ key: StaticString, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        guard let index = find(key) else { return nil }
        let document = document
        guard document.tokens[index].kind == .string else {
            var text = try ownDecoder().string(at: index, key: JSONKey(key))
            return try text.withUTF8(body)
        }
        guard document.tokens[index].flag else { return try body(document.raw(index)) }
        return try document.unescapedBytes(at: index).withUnsafeBufferPointer(body)
    }

    package func int(_ key: StaticString) throws -> Int? {
        guard let index = find(key) else { return nil }
        let document = document
        if document.tokens[index].kind == .number, !document.tokens[index].flag, let value = JSONNumbers.integer(Int.self, document.raw(index)) {
            return value
        }
        return try ownDecoder().integer(Int.self, at: index, key: JSONKey(key))
    }

    /// A finite number as `Double` reads it (the nearest value, as Foundation's decoder does).
    package func double(_ key: StaticString) throws -> Double? {
        guard let index = find(key) else { return nil }
        if document.tokens[index].kind == .number, let value = JSONNumbers.fastDouble(document.raw(index)) { return value }
        return try ownDecoder().floatingPoint(Double.self, at: index, key: JSONKey(key))
    }

    package func bool(_ key: StaticString) throws -> Bool? {
        guard let index = find(key) else { return nil }
        switch document.tokens[index].kind {
        case .true: return true
        case .false: return false
        default: return try ownDecoder().bool(at: index, key: JSONKey(key))
        }
    }

    /// The object under `key`, read by hand too; nil when missing or null.
    package func object(_ key: StaticString) throws -> JSONFields? {
        guard let index = find(key) else { return nil }
        if document.tokens[index].kind != .object { try ownDecoder().expect(.object, [String: Int].self, at: index, key: JSONKey(key)) }
        return nested(index)
    }

    /// Each object of the array under `key`, read by hand too; nil when missing or null. An element
    /// that is not an object is the `DecodingError` a `Decodable` array would throw.
    package func objects<R>(_ key: StaticString, _ body: (JSONFields) throws -> R) throws -> [R]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(key)
        // The array has a decoder (one a call), its elements none of their own.
        let array = ownDecoder().child(index, key: name)
        try array.expect(.array, [Any].self, at: index, key: nil)
        let count = Int(document.tokens[index].count)
        var results: [R] = []
        results.reserveCapacity(count)
        var element = index + 1
        for position in 0..<count {
            if document.tokens[element].kind != .object {
                try array.expect(.object, [String: Int].self, at: element, key: JSONKey(intValue: position))
            }
            results.append(try body(JSONFields(decoder: array, object: element, levels: 1)))
            element = document.next(after: element)
        }
        return results
    }

    /// The array of strings under `key`, read by hand; nil when missing or null. An element that is
    /// not a string is the `DecodingError` a `[String]` would throw.
    package func strings(_ key: StaticString) throws -> [String]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(key), document = document
        if document.tokens[index].kind != .array { try ownDecoder().expect(.array, [String].self, at: index, key: name) }
        let count = Int(document.tokens[index].count)
        var results: [String] = []
        results.reserveCapacity(count)
        var element = index + 1
        for position in 0..<count {
            if document.tokens[element].kind != .string {
                try ownDecoder().child(index, key: name).expect(.string, String.self, at: element, key: JSONKey(intValue: position))
            }
            results.append(document.string(at: element))
            element = document.next(after: element)
        }
        return results
    }

    /// The members of the object under `key`, in their stored order, each as a scalar: a map of
    /// plain values (a record's changed fields) read without a `Decodable` per value. Containers
    /// are named (`.array`, `.object`), not read. Nil when missing or null.
    package func scalars(_ key: StaticString) throws -> [(name: String, value: JSONScalar)]? {
        guard let index = find(key) else { return nil }
        let name = JSONKey(key), owner = ownDecoder()
        try owner.expect(.object, [String: Int].self, at: index, key: name)
        let object = owner.child(index, key: name), document = document
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
        return try ownDecoder().decodeValue(type, at: index, key: JSONKey(key))
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
        .keyNotFound(JSONKey(key), .init(codingPath: ownDecoder().codingPath, debugDescription: "No value for key \("\(key)".debugDescription)."))
    }

    /// The value's token under `key`, unless missing or null.
    private func find(_ key: StaticString) -> Int? {
        let (document, object, cursor) = (document, object, decoder.cursors.at(decoder.depth + levels))
        // A literal's bytes are read where they lie: no string made, nothing retained.
        guard let index = key.withUTF8Buffer({ document.value(forKey: $0, inObject: object, cursor: &cursor.pointee) }),
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
