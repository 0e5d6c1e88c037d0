package import FoundationEssentials

extension JSONBytesDecoder {
    package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, from: $0) }
    }
}

extension JSONBytesEncoder {
    /// As `encode`, copied once from the encoder's buffer into the `Data` (not through an array).
    package func encodeData<T: Encodable>(_ value: T) throws -> Data {
        try withEncoded(value) { state in state.out.withBytes { Data(buffer: $0) } }
    }

    /// As `encodeObject`, copied once into the `Data`.
    package func encodeObjectData(_ body: (inout JSONObjectWriter) throws -> Void) throws -> Data {
        try withObject(body) { state in state.out.withBytes { Data(buffer: $0) } }
    }
}
