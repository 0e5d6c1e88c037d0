import Foundation

/// Dates and times as OFFLEASH's console pages and messages show them, in a zone (24-hour clock,
/// `Mon 7 Dec`): from the calendar's own arithmetic, not a formatter made for each (ICU builds a
/// `DateFormatter` from the locale's data: one per walk was four fifths of the console's week
/// page, 12 pages a second with a busy week). A test holds the text equal to `DateFormatter`'s with
/// the POSIX locale. Pure.
enum LocalDates {
    /// The start of the day `days` after (or before) the one that starts at `start`, in the zone:
    /// by the calendar, since a day is 23 or 25 hours long when the clocks change.
    static func day(_ days: Int, after start: Int64, _ zone: TimeZone) -> Int64 {
        let calendar = calendar(zone)
        guard let moved = calendar.date(byAdding: .day, value: days, to: Date(timeIntervalSince1970: Double(start) / 1000)) else {
            return start + Int64(days) * 86_400_000
        }
        return Int64(calendar.startOfDay(for: moved).timeIntervalSince1970 * 1000)
    }

    /// `yyyy-MM-dd` in the zone.
    static func label(_ millis: Int64, _ zone: TimeZone) -> String {
        let p = parts(millis, zone)
        return padded(p.year, 4) + "-" + padded(p.month, 2) + "-" + padded(p.day, 2)
    }

    /// `HH:mm` in the zone, or `EEE d MMM HH:mm` (`Mon 7 Dec 09:30`) with the date.
    static func time(_ millis: Int64, _ zone: TimeZone, withDate: Bool) -> String {
        let p = parts(millis, zone)
        let clock = padded(p.hour, 2) + ":" + padded(p.minute, 2)
        return withDate ? date(p) + " " + clock : clock
    }

    /// `EEE d MMM` (`Mon 7 Dec`) in the zone.
    static func date(_ millis: Int64, _ zone: TimeZone) -> String { date(parts(millis, zone)) }

    private static func date(_ p: DateComponents) -> String {
        let weekday = weekdays[min(max((p.weekday ?? 1) - 1, 0), 6)], month = months[min(max((p.month ?? 1) - 1, 0), 11)]
        return "\(weekday) \(p.day ?? 1) \(month)"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    private static func parts(_ millis: Int64, _ zone: TimeZone) -> DateComponents {
        calendar(zone).dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    private static func padded(_ value: Int?, _ width: Int) -> String {
        let digits = String(value ?? 0)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
