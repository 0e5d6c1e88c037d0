import Foundation

/// Rosters against the calendar: whether a walker's shifts cover a span, and the slots of a day.
enum Schedule {
    static let slotMinutes = 30

    /// True when one shift of the roster holds the whole span [start, end) (milliseconds since 1970).
    static func covers(_ roster: OFFLEASHProjection.Roster, from start: Int64, to end: Int64) -> Bool {
        guard let zone = TimeZone(identifier: roster.timeZone) else { return false }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let from = Date(timeIntervalSince1970: Double(start) / 1000), to = Date(timeIntervalSince1970: Double(end) / 1000)
        let day = calendar.startOfDay(for: from)
        guard calendar.isDate(from, inSameDayAs: to.addingTimeInterval(-0.001)) else { return false }
        let weekday = isoWeekday(calendar.component(.weekday, from: from))
        let startMinute = Int(from.timeIntervalSince(day) / 60), endMinute = Int((to.timeIntervalSince(day) / 60).rounded(.up))
        return roster.shifts.contains { $0.weekday == weekday && $0.startMinute <= startMinute && endMinute <= $0.endMinute }
    }

    /// Every slot start of `date` (`YYYY-MM-DD` in the roster's zone) inside a shift, `slotMinutes` apart, that fits `duration`.
    static func candidateStarts(_ roster: OFFLEASHProjection.Roster, date: String, durationMinutes: Int) -> [Int64] {
        guard let zone = TimeZone(identifier: roster.timeZone) else { return [] }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return [] }
        let weekday = isoWeekday(calendar.component(.weekday, from: day))
        var starts: [Int64] = []
        for shift in roster.shifts where shift.weekday == weekday {
            var minute = (shift.startMinute + slotMinutes - 1) / slotMinutes * slotMinutes
            while minute + durationMinutes <= shift.endMinute {
                starts.append(Int64((day.timeIntervalSince1970 + Double(minute * 60)) * 1000))
                minute += slotMinutes
            }
        }
        return starts
    }

    /// Foundation's weekday (1 Sunday … 7 Saturday) as ISO's (1 Monday … 7 Sunday).
    static func isoWeekday(_ foundation: Int) -> Int { foundation == 1 ? 7 : foundation - 1 }
}
