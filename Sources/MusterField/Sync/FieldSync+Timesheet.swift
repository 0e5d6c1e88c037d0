package import Foundation
import MusterEvents
import MusterLog

/// An ISO week (`2026-W48`), Monday 00:00 UTC to the next Monday (`bounds(in:)` gives it in a company's zone).
package struct ISOWeek: Sendable, Equatable, CustomStringConvertible {
    package var year: Int
    package var week: Int
    /// Monday 00:00 UTC, in milliseconds.
    package var start: Int64
    package var end: Int64 { start + 7 * 86_400_000 }

    static let day: Int64 = 86_400_000

    /// Parses `2026-W48`.
    package init?(_ text: String) {
        let parts = text.split(separator: "-W", omittingEmptySubsequences: false)
        guard text.utf8.count == 8, parts.count == 2, let year = Int(parts[0]), (1970...9999).contains(year), let week = Int(parts[1]),
              (1...53).contains(week), let monday = Self.mondayOfWeekOne(year) else { return nil }
        guard week < 53 || Self.mondayOfWeekOne(year + 1) == monday + 53 * 7 * Self.day else { return nil }
        (self.year, self.week, start) = (year, week, monday + Int64(week - 1) * 7 * Self.day)
    }

    /// The week holding `millis`.
    package init(containing millis: Int64) {
        let days = millis >= 0 ? millis / Self.day : (millis - Self.day + 1) / Self.day
        let monday = (days - (days + 3) % 7) * Self.day // 1970-01-01 was a Thursday: (days + 3) % 7 is 0 on Mondays
        let thursday = Timestamp.string(millis: monday + 3 * Self.day, fraction: false)
        let year = Int(thursday.prefix(4)) ?? 1970 // the ISO year is the year of the week's Thursday
        let first = Self.mondayOfWeekOne(year) ?? monday
        (self.year, week, start) = (year, Int((monday - first) / (7 * Self.day)) + 1, monday)
    }

    /// The Monday of the week that holds 4 January.
    static func mondayOfWeekOne(_ year: Int) -> Int64? {
        guard let january4 = Timestamp.millis(day: String(format: "%04d-01-04", year)) else { return nil }
        let days = january4 / day
        return (days - (days + 3) % 7) * day
    }

    package var description: String { String(format: "%04d-W%02d", year, week) }
}

extension ISOWeek {
    /// The week that holds `millis` on `zone`'s clocks.
    package init(containing millis: Int64, in zone: TimeZone) {
        self.init(containing: millis + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(millis) / 1000))) * 1000)
    }

    /// The week in `zone`: from its Monday 00:00 there to the next, as UTC milliseconds (a week
    /// with a daylight-saving change is an hour shorter or longer).
    package func bounds(in zone: TimeZone) -> Range<Int64> { Self.instant(start, zone)..<Self.instant(end, zone) }

    /// The instant at which `zone`'s clocks show `wall` (UTC milliseconds read as a local time).
    static func instant(_ wall: Int64, _ zone: TimeZone) -> Int64 {
        let offset = { (millis: Int64) in Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(millis) / 1000))) * 1000 }
        return wall - offset(wall - offset(wall))
    }
}

/// A week's time entries as a company counts them.
package struct Timesheet: Sendable, Equatable {
    package var week: ISOWeek
    /// The company's zone (`UTC` unless set): where its weeks begin.
    package var timeZone: String
    package var entries: [TimesheetEntry]
}

/// One time entry of a timesheet.
package struct TimesheetEntry: Sendable, Equatable {
    package var entryId: String
    package var personId: String
    package var projectId: String
    package var projectName: String
    package var start: String
    package var end: String?
    /// Nil while the entry is open (no end yet).
    package var hours: Double?
    package var approved: Bool
    package var review: [String]
}

extension FieldSync {
    /// The time entries `person` sees that start in `week` (this week when nil) on their company's
    /// clocks, by person, then project, then start.
    package func timesheet(of person: FieldPerson, week: ISOWeek?) async -> Timesheet {
        await runner.read { book in
            let settings = book.companies[person.orgId]?.settings ?? .standard
            let week = week ?? ISOWeek(containing: Timestamp.millis(Date()), in: settings.zone)
            let bounds = week.bounds(in: settings.zone)
            var entries: [TimesheetEntry] = []
            for record in book.records.values where record.kind == .timeEntry && !record.deleted {
                guard book.sees(record, personId: person.personId, orgId: person.orgId, role: person.role),
                      let start = record.values["startTime"]?.string, let from = Timestamp.millis(start),
                      bounds.contains(from) else { continue }
                let end = record.values["endTime"]?.string
                let hours = end.flatMap { Timestamp.millis($0) }.map { max(0, Double($0 - from) / 3_600_000) }
                let project = book.record(record.projectId)?.values["name"]?.string ?? ""
                entries.append(TimesheetEntry(entryId: record.id, personId: record.ownerId, projectId: record.projectId, projectName: project,
                                              start: start, end: end, hours: hours, approved: record.approved, review: record.review))
            }
            entries.sort { a, b in
                (a.personId, a.projectName, a.projectId, a.start, a.entryId) < (b.personId, b.projectName, b.projectId, b.start, b.entryId)
            }
            return Timesheet(week: week, timeZone: settings.timeZone ?? "UTC", entries: entries)
        }
    }
}

/// One expense of a week, as the expenses CSV lists it.
package struct ExpenseLine: Sendable, Equatable {
    package var expenseId: String
    package var personId: String
    package var projectId: String
    package var projectName: String
    package var date: String
    package var amount: String
    package var currency: String
    package var category: String
    package var notes: String
    package var receipt: Bool
}

extension FieldSync {
    /// The expenses dated in `week` (in the company's zone; this week when nil) that `person` sees:
    /// a manager, the company's; by worker, project and date.
    package func expenses(of person: FieldPerson, week: ISOWeek?) async -> (week: ISOWeek, lines: [ExpenseLine]) {
        await runner.read { book in
            let settings = book.companies[person.orgId]?.settings ?? .standard
            let week = week ?? ISOWeek(containing: Timestamp.millis(Date()), in: settings.zone)
            let bounds = week.bounds(in: settings.zone)
            var lines: [ExpenseLine] = []
            for record in book.records.values where record.kind == .expense && !record.deleted {
                guard book.sees(record, personId: person.personId, orgId: person.orgId, role: person.role),
                      let date = record.values["date"]?.string, let day = Timestamp.millis(day: date),
                      bounds.contains(day + 12 * 3_600_000) else { continue }
                lines.append(ExpenseLine(expenseId: record.id, personId: record.ownerId, projectId: record.projectId,
                                         projectName: book.record(record.projectId)?.values["name"]?.string ?? "", date: date,
                                         amount: record.values["amount"]?.string ?? "", currency: record.values["currency"]?.string ?? "",
                                         category: record.values["category"]?.string ?? "", notes: record.values["notes"]?.string ?? "",
                                         receipt: record.values["receipt"]?.string != nil))
            }
            lines.sort { ($0.personId, $0.projectName, $0.date, $0.expenseId) < ($1.personId, $1.projectName, $1.date, $1.expenseId) }
            return (week, lines)
        }
    }
}
