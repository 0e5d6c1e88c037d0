/// Decodes any `Decodable` from JSON bytes: one pass of `JSONScanner`, then the value's own
/// `init(from:)` reads straight from the tokens and the bytes. Errors are `DecodingError`s with
/// the coding path, as Foundation's `JSONDecoder` throws them; a text that is not JSON is a
/// `.dataCorrupted` whose underlying error is the `JSONError` saying why.
package struct JSONBytesDecoder: Sendable {
    package var limits = JSONLimits()

    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        try withRoot(of: bytes) { try T(from: $0) }
    }

    /// Scans `bytes` and hands the decoder of the whole document to `body`. The decoders borrow
    /// the tokens for this call only: a Decodable that kept its decoder would break Decodable's
    /// contract, not just this one.
    func withRoot<R>(of bytes: UnsafeRawBufferPointer, _ body: (TapeDecoder) throws -> R) throws -> R {
        let typed = bytes.assumingMemoryBound(to: UInt8.self)
        let tokens: [JSONToken]
        do {
            tokens = try JSONScanner.scan(typed, limits: limits)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not valid JSON: \(error)", underlyingError: error))
        }
        return try tokens.withUnsafeBufferPointer { tokens in
            // On the stack: a homogeneous tuple's elements lie in a row, as an array's would
            // (`MemberCursors.depths` of them).
            var cursors = (MemberCursor(), MemberCursor(), MemberCursor(), MemberCursor(),
                           MemberCursor(), MemberCursor(), MemberCursor(), MemberCursor())
            assert(MemoryLayout.size(ofValue: cursors) == MemoryLayout<MemberCursor>.stride * MemberCursors.depths)
            return try withUnsafeMutablePointer(to: &cursors) { tuple in
                try tuple.withMemoryRebound(to: MemberCursor.self, capacity: MemberCursors.depths) { base in
                    try body(TapeDecoder(document: JSONDocument(bytes: typed, tokens: tokens), cursors: MemberCursors(base: base)))
                }
            }
        }
    }

    package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0) }
    }

    /// Checks that `bytes` are one JSON text within the limits, decoding nothing.
    package func validate(_ bytes: UnsafeRawBufferPointer) throws(JSONError) {
        _ = try JSONScanner.scan(bytes.assumingMemoryBound(to: UInt8.self), limits: limits)
    }
}

/// A coding key for array positions and `super`. An enum of one payload, so that it fits an
/// existential's inline buffer: a struct of a `String` and an `Int?` did not, and every field read
/// boxed its key on the heap. An array position's or a literal's text is made only when an error
/// asks for it.
enum JSONKey: CodingKey {
    case name(String)
    case position(Int)
    /// A hand-written reader's key (`JSONFields`).
    case literal(StaticString)

    init(stringValue: String) { self = .name(stringValue) }
    init(intValue: Int) { self = .position(intValue) }
    init(_ literal: StaticString) { self = .literal(literal) }

    var stringValue: String {
        switch self {
        case .name(let name): name
        case .position(let position): "\(position)"
        case .literal(let literal): "\(literal)"
        }
    }

    var intValue: Int? {
        guard case .position(let position) = self else { return nil }
        return position
    }

    static let `super` = JSONKey(stringValue: "super")
}

/// The decoder of one value (the token at `index`). Nested values get their own, linked to their
/// parent, so the coding path is made only when an error needs it. Used by one decode call on
/// one thread, as `Decoder`s are.
final class TapeDecoder: Decoder, SingleValueDecodingContainer {
    let document: JSONDocument
    let index: Int
    let parent: TapeDecoder?
    let key: (any CodingKey)?
    /// The key when it is our own (a hand reader's member, an array position): kept as itself, not
    /// boxed, so that making and freeing the decoder of each nested object costs no existential.
    let ownKey: JSONKey?
    /// How deeply nested the value is (the document is 0): which of `cursors` its lookups use.
    let depth: Int
    let cursors: MemberCursors

    /// The decoder of a whole document.
    init(document: JSONDocument, cursors: MemberCursors) {
        self.document = document
        self.cursors = cursors
        (index, parent, key, ownKey, depth) = (0, nil, nil, nil, 0)
    }

    /// The decoder of the value at `index`, nested `depth` deep (below `parent`, or below
    /// members a hand reader reads without decoders of their own: `JSONFields`).
    init(_ index: Int, parent: TapeDecoder, depth: Int, key: (any CodingKey)?, ownKey: JSONKey? = nil) {
        self.document = parent.document
        self.cursors = parent.cursors
        self.index = index
        self.parent = parent
        self.key = key
        self.ownKey = ownKey
        self.depth = depth
    }

    /// Where the next key lookup in this decoder's object starts.
    var cursor: UnsafeMutablePointer<MemberCursor> { cursors.at(depth) }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var decoder: TapeDecoder? = self
        while let current = decoder {
            if let key = current.key { path.append(key) } else if let key = current.ownKey { path.append(key) }
            decoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func child(_ index: Int, key: any CodingKey) -> TapeDecoder {
        TapeDecoder(index, parent: self, depth: depth + 1, key: key)
    }

    func child(_ index: Int, key: JSONKey) -> TapeDecoder {
        TapeDecoder(index, parent: self, depth: depth + 1, key: nil, ownKey: key)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, [String: Int].self, at: index, key: nil)
        return KeyedDecodingContainer(KeyedTapeContainer<Key>(decoder: self, object: index))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, [Int].self, at: index, key: nil)
        return UnkeyedTapeContainer(decoder: self, array: index)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Reading one token

    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        key.map { codingPath + [$0] } ?? codingPath
    }

    func expect(_ kind: JSONToken.Kind, _ type: Any.Type, at index: Int, key: (any CodingKey)?) throws {
        let found = document.tokens[index].kind
        guard found != kind else { return }
        if found == .null {
            throw DecodingError.valueNotFound(type, .init(codingPath: path(key), debugDescription: "Expected \(kind.name) but found null instead."))
        }
        throw DecodingError.typeMismatch(type, .init(codingPath: path(key), debugDescription: "Expected \(kind.name) but found \(found.name) instead."))
    }

    func bool(at index: Int, key: (any CodingKey)?) throws -> Bool {
        switch document.tokens[index].kind {
        case .true: return true
        case .false: return false
        default:
            try expect(.true, Bool.self, at: index, key: key)
            return false
        }
    }

    func string(at index: Int, key: (any CodingKey)?) throws -> String {
        try expect(.string, String.self, at: index, key: key)
        return document.string(at: index)
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int, key: (any CodingKey)?) throws -> T {
        try expect(.number, T.self, at: index, key: key)
        let raw = document.raw(index)
        if !document.tokens[index].flag, let value = JSONNumbers.integer(T.self, raw) { return value }
        // A fraction or exponent that still names a whole number (`1.0`, `1e2`) is taken, as Foundation does.
        if document.tokens[index].flag, let double = Double(String(decoding: raw, as: UTF8.self)),
           let value = T(exactly: double) {
            return value
        }
        throw DecodingError.dataCorrupted(.init(codingPath: path(key),
                                                debugDescription: "Number \(String(decoding: raw, as: UTF8.self)) does not fit in \(T.self)."))
    }

    func floatingPoint<T: LosslessStringConvertible & BinaryFloatingPoint>(_ type: T.Type, at index: Int, key: (any CodingKey)?) throws -> T {
        try expect(.number, T.self, at: index, key: key)
        if T.self == Double.self, let value = JSONNumbers.fastDouble(document.raw(index)) as? T { return value }
        let text = String(decoding: document.raw(index), as: UTF8.self)
        guard let value = T(text), value.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(key), debugDescription: "Number \(text) does not fit in \(T.self)."))
        }
        return value
    }

    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, key: any CodingKey) throws -> T {
        // The common leaves without a decoder of their own.
        if T.self == String.self, let value = try string(at: index, key: key) as? T { return value }
        if T.self == Int.self, let value = try integer(Int.self, at: index, key: key) as? T { return value }
        if T.self == Bool.self, let value = try bool(at: index, key: key) as? T { return value }
        if T.self == Double.self, let value = try floatingPoint(Double.self, at: index, key: key) as? T { return value }
        return try T(from: child(index, key: key))
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { document.tokens[index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: index, key: nil) }
    func decode(_ type: String.Type) throws -> String { try string(at: index, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type, at: index, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type, at: index, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type, at: index, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, at: index, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, at: index, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, at: index, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, at: index, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type, at: index, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, at: index, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, at: index, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, at: index, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, at: index, key: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}
