package import Foundation
import MusterEvents

/// What a company decides about sync.
package struct CompanySettings: Codable, Sendable, Equatable {
    /// `kind.field` names never overwritten silently (`expense.amount`).
    package var importantFields: [String]
    /// `timeEntry.startTime` and the like: important once a manager approved the entry.
    package var importantOnceApproved: [String]
    /// How long a deletion is remembered: the longest a device may stay offline and still catch
    /// up by pulling; after that it resyncs from scratch.
    package var tombstoneDays: Int
    /// The IANA zone its weeks and days are counted in (`America/Denver`); UTC when unset.
    package var timeZone: String?

    package static let standard = CompanySettings(importantFields: ["expense.amount"],
                                                 importantOnceApproved: ["timeEntry.endTime", "timeEntry.startTime"], tombstoneDays: 30)

    package init(importantFields: [String], importantOnceApproved: [String], tombstoneDays: Int, timeZone: String? = nil) {
        self.importantFields = importantFields
        self.importantOnceApproved = importantOnceApproved
        self.tombstoneDays = tombstoneDays
        self.timeZone = timeZone
    }

    /// The zone timesheets count in.
    package var zone: TimeZone { timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt }

    package func validate() throws {
        guard (1...3_650).contains(tombstoneDays) else { throw EventValidationError(field: "/settings/tombstoneDays", "must be 1 to 3650") }
        if let timeZone {
            let allowed = timeZone.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || "/_+-".utf8.contains($0) }
            guard (1...64).contains(timeZone.utf8.count), allowed, TimeZone(identifier: timeZone) != nil else {
                throw EventValidationError(field: "/settings/timeZone", "must be an IANA time zone, like America/Denver")
            }
        }
        for (list, field) in [(importantFields, "importantFields"), (importantOnceApproved, "importantOnceApproved")] {
            try Validate.count(list, 0...64, field: "/settings/\(field)")
            for (i, name) in list.enumerated() {
                let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts.count == 2, let kind = EntityKind(rawValue: parts[0]), kind.fields[parts[1]] != nil else {
                    throw EventValidationError(field: "/settings/\(field)/\(i)", "must name a field, like expense.amount")
                }
            }
        }
    }

    /// Whether a change of `field` must wait for a manager: an important field the device had not
    /// seen change, or a field of an approved entry that only a manager may still change.
    func guards(_ kind: EntityKind, _ field: String, approved: Bool, changedSince: Bool, byManager: Bool) -> Bool {
        let name = "\(kind.rawValue).\(field)"
        if approved && !byManager && importantOnceApproved.contains(name) { return true }
        return changedSince && (importantFields.contains(name) || (approved && importantOnceApproved.contains(name)))
    }
}
