import Crypto
import Foundation
import MusterJSON
import MusterRuntime

/// An installation's secret: given once at registration (`dsk_` + 64 hex, 256 random bits),
/// kept only as its SHA-256. With the device id it proves the installation: what the push token
/// never does.
package enum DeviceSecret {
    package static let prefix = "dsk_"

    static func generate() -> String { prefix + randomHex(32) }

    static func randomHex(_ count: Int) -> String {
        Hex.lowercase(SecureRandom.bytes(count))
    }

    package static func hash(_ secret: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Shape first (a header from anyone), then the hash compared in constant time.
    package static func matches(_ presented: String, _ storedHash: String) -> Bool {
        guard isWellFormed(presented) else { return false }
        return APIKey.constantTimeEquals(hash(presented), storedHash)
    }

    /// `dsk_` and 64 lowercase hex digits.
    package static func isWellFormed(_ secret: String) -> Bool {
        let bytes = Array(secret.utf8)
        guard bytes.count == prefix.utf8.count + 64, secret.hasPrefix(prefix) else { return false }
        return bytes.dropFirst(prefix.utf8.count).allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
