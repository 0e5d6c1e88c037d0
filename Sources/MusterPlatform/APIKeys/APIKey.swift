import Crypto
import Foundation
import MusterJSON
import MusterRuntime

/// API keys: `<app>_` followed by 64 lowercase hex digits (256 random bits).
package enum APIKey {
    /// A new secret key and its id.
    package static func generate(app: String) -> (key: String, keyId: String) {
        let secret = SecureRandom.bytes(32)
        let id = SecureRandom.bytes(8)
        return ("\(app)_\(Hex.lowercase(secret))", "key_\(Hex.lowercase(id))")
    }

    /// The id of a key that was made elsewhere and imported: derived from its hash, so importing
    /// the same key twice names the same aggregate (and the second import is refused).
    package static func importedID(for key: String) -> String {
        "key_" + hash(key).prefix(16)
    }

    /// SHA-256, lowercase hex. The keys carry 256 random bits, so a fast hash is the right
    /// tool: there is nothing for a slow password hash to protect against guessing.
    package static func hash(_ key: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(key.utf8)))
    }

    package static func prefix(_ key: String) -> String {
        guard let underscore = key.firstIndex(of: "_") else { return String(key.prefix(8)) }
        return String(key[...underscore]) + key[key.index(after: underscore)...].prefix(4)
    }

    /// Shape check before any lookup: `<app>_` + 64 lowercase hex.
    package static func isWellFormed(_ key: String) -> Bool {
        guard key.utf8.count <= 80, let underscore = key.firstIndex(of: "_") else { return false }
        let app = key[..<underscore]
        let secret = key[key.index(after: underscore)...]
        return (2...32).contains(app.utf8.count) && app.utf8.allSatisfy { $0 >= 97 && $0 <= 122 } && secret.utf8.count == 64
            && secret.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// Compares two equal-length strings in time that does not depend on where they differ.
    package static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<x.count { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
