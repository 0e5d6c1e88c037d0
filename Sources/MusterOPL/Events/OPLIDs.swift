import Crypto
package import Foundation
import MusterEvents
import MusterJSON

/// Identifiers of OPL aggregates: a prefix and 16 lowercase hex digits.
package enum OPLIDs {
    /// A fresh random id (`act_…`, `snp_…`, `loc_…`).
    package static func random(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + String(format: "%016llx", generator.next() as UInt64)
    }

    /// The same id every time for the same inputs: a retried submission with the same
    /// `Idempotency-Key` from the same key names the same action.
    package static func derived(_ prefix: String, from parts: String...) -> String {
        let digest = SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8))
        return prefix + Hex.lowercase(digest.prefix(8))
    }

    /// Employers are identified by their normalised name, so every action against "Acme Corp."
    /// lands on one employer.
    package static func employer(named name: String) -> String {
        let normalised = name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(String.init).joined()
        return derived("emp_", from: normalised.isEmpty ? name : normalised)
    }

    /// The site an approved snapshot becomes.
    package static func siteID(forSnapshot snapshotId: String) -> String { "loc_" + snapshotId.dropFirst(4) }
}

/// Dates as the clients send and read them.
package enum OPLDates {
    /// RFC 3339 (`2026-02-10T19:23:45Z`, with or without fraction or offset) or a bare day
    /// (`2026-02-10`, Android), which means midnight UTC. Nil for a day the calendar does not
    /// have (`2026-02-31`; Foundation's parser would roll it into March).
    package static func parse(_ text: String) -> Date? {
        guard let millis = Timestamp.millis(day: text) ?? Timestamp.millis(text) else { return nil }
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// `2026-02-10T19:23:45Z`
    package static func string(_ date: Date) -> String { date.formatted(.iso8601) }
}
