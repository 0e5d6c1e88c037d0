import Foundation

/// The dates of a recurring series, from what the app sends. Pure: no clock, no I/O.
///
/// The app sends the weekday of the chosen date in the device's zone (0 Sunday … 6 Saturday), the
/// UTC calendar date of the chosen instant (which may be a day off the local date), and the time
/// of day in the device's 12-hour, locale-formatted clock (`9:00 AM`, `9:00 am`, `9:00 a.m.`).
enum SeriesPlan {
    /// Minutes after midnight of `9:00 AM`, `9:00 pm`, `9:00 a.m.`, `21:00`; nil for what cannot be
    /// read (`9:00 午前`).
    static func minuteOfDay(_ text: String) -> Int? {
        let lowered = text.lowercased().replacingOccurrences(of: ".", with: "").trimmingCharacters(in: .whitespaces)
        var clock = Substring(lowered)
        var marker: String?
        for suffix in ["am", "pm"] where clock.hasSuffix(suffix) {
            marker = suffix
            clock = clock.dropLast(2)
        }
        let parts = clock.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60 else { return nil }
        switch marker {
        case "am"?: return (1...12).contains(hour) ? (hour % 12) * 60 + minute : nil
        case "pm"?: return (1...12).contains(hour) ? (hour % 12 + 12) * 60 + minute : nil
        default: return hour < 24 ? hour * 60 + minute : nil
        }
    }

    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }

    /// `YYYY-MM-DD` as a date at midnight UTC (a calendar day, not an instant).
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day),
              let date = utc.date(from: DateComponents(year: year, month: month, day: day)),
              utc.component(.day, from: date) == day else { return nil }
        return date
    }

    static func text(_ day: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// The first local date: the one within a day of `startDate` whose weekday is `dayOfWeek`.
    static func firstDay(startDate: Date, dayOfWeek: Int) -> Date? {
        for offset in [0, -1, 1] {
            guard let candidate = utc.date(byAdding: .day, value: offset, to: startDate) else { continue }
            if utc.component(.weekday, from: candidate) - 1 == dayOfWeek { return candidate }
        }
        return nil
    }

    /// The series' local dates: from `first`, `count` of them or up to `until` (inclusive), at most `limit`.
    static func days(from first: Date, frequency: String, count: Int?, until: Date?, limit: Int = 60) -> [Date] {
        let calendar = utc
        let weekday = calendar.component(.weekday, from: first)
        let nth = (calendar.component(.day, from: first) - 1) / 7 + 1
        var days: [Date] = []
        var index = 0
        while days.count < min(count ?? limit, limit) {
            let next: Date?
            switch frequency {
            case "weekly": next = calendar.date(byAdding: .day, value: 7 * index, to: first)
            case "biweekly": next = calendar.date(byAdding: .day, value: 14 * index, to: first)
            default: next = calendar.date(byAdding: .month, value: index, to: first).flatMap { nthWeekday(nth, weekday, inMonthOf: $0) }
            }
            guard let next else { break }
            if let until, next > until { break }
            days.append(next)
            index += 1
        }
        return days
    }

    /// The `nth` `weekday` of the month of `day`; the last one when the month has no `nth`.
    static func nthWeekday(_ nth: Int, _ weekday: Int, inMonthOf day: Date) -> Date? {
        let calendar = utc
        let c = calendar.dateComponents([.year, .month], from: day)
        guard let firstOfMonth = calendar.date(from: DateComponents(year: c.year, month: c.month, day: 1)) else { return nil }
        let offset = (weekday - calendar.component(.weekday, from: firstOfMonth) + 7) % 7
        var result = calendar.date(byAdding: .day, value: offset + 7 * (nth - 1), to: firstOfMonth)
        if let candidate = result, calendar.component(.month, from: candidate) != c.month {
            result = calendar.date(byAdding: .day, value: -7, to: candidate)
        }
        return result
    }

    /// The instant of `minuteOfDay` on the local date `day` in `zone`, in milliseconds.
    static func instant(_ day: Date, minuteOfDay: Int, zone: TimeZone) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = utc.dateComponents([.year, .month, .day], from: day)
        guard let date = calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day, hour: minuteOfDay / 60,
                                                            minute: minuteOfDay % 60)) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
