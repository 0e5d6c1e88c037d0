/// The members of one scanned object, for the few hot readers that pick their fields by hand
/// (the stored envelope) instead of through a `Decodable`. Valid only inside the call that gives it.
public struct JSONFields {
    let decoder: TapeDecoder

    /// The string under `key`; nil when it is missing or null; a `DecodingError` for another type.
    public func string(_ key: String) throws -> String? {
        guard let index = find(key), decoder.document.tokens[index].kind != .null else { return nil }
        return try decoder.string(at: index, key: JSONKey(stringValue: key))
    }

    /// Decodes the value under `key` with its `Decodable` conformance.
    public func decode<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(JSONKey(stringValue: key), .init(codingPath: [], debugDescription: "No value for key \(key.debugDescription)."))
        }
        return try decoder.decodeValue(type, at: index, key: JSONKey(stringValue: key))
    }

    private func find(_ key: String) -> Int? {
        var name = key
        let document = decoder.document
        return name.withUTF8 { utf8 in
            var at = decoder.index + 1
            for _ in 0..<document.tokens[decoder.index].count {
                if document.key(at, equals: utf8) { return at + 1 }
                at = document.next(after: at + 1)
            }
            return nil
        }
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
