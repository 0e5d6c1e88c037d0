import Crypto
import Foundation
import MusterJSON

/// Ids of the form `<prefix>` + 32 lowercase hex digits (`psh_…`, `enr_…`, `doc_…`): random for
/// something new, or derived from what names it (a caller and their `Idempotency-Key`, an event),
/// so asking again names the same aggregate.
package enum HexIDs {
    package static func random(_ prefix: String) -> String {
        prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The first 16 bytes of SHA-256 over the parts, one per line.
    package static func derived(_ prefix: String, from parts: String...) -> String {
        prefix + Hex.lowercase(SHA256.hash(data: Data(parts.joined(separator: "\n").utf8)).prefix(16))
    }
}
