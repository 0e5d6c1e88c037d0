import Crypto
import Foundation
import MusterJSON
import MusterRuntime

/// Ids of the form `<prefix>` + 32 lowercase hex digits (`psh_…`, `enr_…`, `doc_…`): random for
/// something new, or derived from what names it (a caller and their `Idempotency-Key`, an event),
/// so asking again names the same aggregate.
package enum HexIDs {
    package static func random(_ prefix: String) -> String {
        // A random UUID's 16 bytes in hex: its string without the dashes, lowercased.
        prefix + withUnsafeBytes(of: SecureRandom.uuid().uuid) { Hex.lowercase($0) }
    }

    /// The first 16 bytes of SHA-256 over the parts, one per line.
    /// Hashed part by part, with no joined copy: notifications derive several ids an event.
    package static func derived(_ prefix: String, from parts: String...) -> String {
        var hash = SHA256()
        for (index, part) in parts.enumerated() {
            if index > 0 { withUnsafeBytes(of: UInt8(ascii: "\n")) { hash.update(bufferPointer: $0) } }
            var part = part
            part.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return prefix + Hex.lowercase(hash.finalize().prefix(16))
    }
}
