public import FoundationEssentials

extension JSONBytesDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, from: $0) }
    }
}

extension JSONBytesEncoder {
    public func encodeData<T: Encodable>(_ value: T) throws -> Data {
        Data(try encode(value))
    }
}
