package import Foundation
import JWTKit
package import MusterJSON

/// An access token's claims laid out by hand: MusterJSON writes them without `Codable`. JWTKit's
/// date claims encode a `Date`, which only an encoder told to write seconds since 1970 gets
/// right; here they are whole seconds (`People` issues tokens on whole seconds) as numbers, as
/// Foundation's JWT encoder writes them (in key order: a test holds the bytes equal to its sorted output).
extension AccessClaims: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        // In key order, so the writer never has to sort.
        try object.string("app", app)
        if let aud {
            if aud.value.count == 1, let only = aud.value.first {
                try object.string("aud", only)
            } else {
                try object.strings("aud", aud.value)
            }
        }
        try Self.seconds("exp", exp.value, &object)
        try Self.seconds("iat", iat.value, &object)
        try object.string("org", org)
        try object.string("role", role)
        try object.int("seq", seq)
        try object.string("sid", sid)
        try object.string("sub", sub.value)
    }

    private static func seconds(_ key: String, _ date: Date, _ object: inout JSONObjectWriter) throws {
        let seconds = date.timeIntervalSince1970
        if let whole = Int(exactly: seconds) { try object.int(key, whole) } else { try object.double(key, seconds) }
    }
}

/// How access tokens' header and claims become JSON when signing: MusterJSON instead of
/// Foundation's `JSONEncoder`, whose generic machinery (metadata lookups, boxing) cost a password
/// sign-in more CPU than the ECDSA signature itself. A header of strings (`alg`, `kid`, `typ`:
/// what JWTKit makes) and claims that lay themselves out (`JSONObjectEncodable`) take the fast
/// path; anything else is written by Foundation's encoder as JWTKit would.
package struct TokenJSONEncoder: JWTJSONEncoder {
    package init() {}

    package func encode<T: Encodable>(_ value: T) throws -> Data {
        if let header = value as? JWTHeader, let strings = Self.strings(of: header) {
            return try JSONBytesEncoder().encodeObjectData { object in
                for (key, value) in strings { try object.string(key, value) }
            }
        }
        if value is any JSONObjectEncodable { return try JSONBytesEncoder().encodeData(value) }
        return try Self.fallback.encode(value)
    }

    /// The header's fields when every one is a string.
    static func strings(of header: JWTHeader) -> [(String, String)]? {
        var strings: [(String, String)] = []
        for (key, field) in header.fields {
            guard case .string(let value) = field else { return nil }
            strings.append((key, value))
        }
        return strings
    }

    private static let fallback: any JWTJSONEncoder = .defaultForJWT
}
