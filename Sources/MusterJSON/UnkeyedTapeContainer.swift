/// An array's elements, in order.
struct UnkeyedTapeContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let array: Int
    /// The token of the next element.
    private var position: Int
    private(set) var currentIndex = 0

    init(decoder: TapeDecoder, array: Int) {
        self.decoder = decoder
        self.array = array
        position = array + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { Int(decoder.document.tokens[array].count) }
    var isAtEnd: Bool { currentIndex >= Int(decoder.document.tokens[array].count) }

    /// The next element's token and key; moves past it.
    private mutating func next(_ type: Any.Type) throws -> (Int, JSONKey) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [JSONKey(intValue: currentIndex)],
                                                          debugDescription: "Unkeyed container is at end."))
        }
        let element = (position, JSONKey(intValue: currentIndex))
        position = decoder.document.next(after: position)
        currentIndex += 1
        return element
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.document.tokens[position].kind == .null else { return false }
        _ = try next(Never.self)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (at, key) = try next(type); return try decoder.bool(at: at, key: key) }
    mutating func decode(_ type: String.Type) throws -> String { let (at, key) = try next(type); return try decoder.string(at: at, key: key) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (at, key) = try next(type); return try decoder.floatingPoint(type, at: at, key: key) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (at, key) = try next(type); return try decoder.floatingPoint(type, at: at, key: key) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (at, key) = try next(type); return try decoder.integer(type, at: at, key: key) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (at, key) = try next(type)
        return try decoder.decodeValue(type, at: at, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (at, key) = try next(KeyedDecodingContainer<NestedKey>.self)
        return try decoder.child(at, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (at, key) = try next((any UnkeyedDecodingContainer).self)
        return try decoder.child(at, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (at, key) = try next((any Decoder).self)
        return decoder.child(at, key: key)
    }
}
