package import Foundation

/// Timestamps as Muster writes and reads them, without `DateFormatter` (these run once per
/// analytics event, hundreds of thousands of times in a replay).
package enum Timestamp {
    /// `2026-02-10T19:23:45Z`: UTC, no fraction, as the apps' decoders expect.
    package static func string(_ date: Date) -> String {
        string(millis: millis(date), fraction: false)
    }

    /// Whole milliseconds since 1970 (rounded down).
    package static func millis(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// `2026-02-10T19:23:45.120Z` (or without the fraction).
    package static func string(millis: Int64, fraction: Bool = true) -> String {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let ms = Int(millis - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (y, m, d) = civil(fromDays: days)
        guard (0...9999).contains(y) else {
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            var text = "\(String(y).leftPadded(to: 4))-\(two(m))-\(two(d))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
            if fraction { text += "." + String(ms).leftPadded(to: 3) }
            return text + "Z"
        }
        // The usual years, written digit by digit into one buffer: string interpolation of eight
        // parts cost a microsecond, and the collector writes four timestamps an event.
        return String(unsafeUninitializedCapacity: 24) { out in
            var i = 0
            func put(_ value: Int, _ width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                var rest = value
                while divisor > 0 {
                    out[i] = UInt8(48 + rest / divisor)
                    rest %= divisor
                    divisor /= 10
                    i += 1
                }
            }
            func mark(_ c: Unicode.Scalar) {
                out[i] = UInt8(ascii: c)
                i += 1
            }
            put(y, 4); mark("-"); put(m, 2); mark("-"); put(d, 2); mark("T")
            put(secondOfDay / 3600, 2); mark(":"); put(secondOfDay / 60 % 60, 2); mark(":"); put(secondOfDay % 60, 2)
            if fraction { mark("."); put(ms, 3) }
            mark("Z")
            return i
        }
    }

    /// Milliseconds since 1970 of an RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS`, an optional
    /// fraction of any length (kept to the millisecond), then `Z` or `±HH:MM`. Nil for anything
    /// else, including days the calendar does not have (`2026-02-31`).
    package static func millis(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { millis(utf8: $0) }
    }

    package static func millis(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                let c = b[i]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116, b[13] == 58, b[16] == 58,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
              second < 61 else { return nil }
        var i = 19
        var ms = 0
        if b[i] == 46 {
            i += 1
            var n = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if n < 3 { ms = ms * 10 + Int(b[i] - 48) }
                n += 1
                i += 1
            }
            guard n > 0 else { return nil }
            // `.5` is 500 ms, `.05` 50 ms; digits past the third are dropped, not rounded.
            if n == 1 { ms *= 100 } else if n == 2 { ms *= 10 }
        }
        guard i < b.count else { return nil }
        var offsetMinutes = 0
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == 58, let om = digits(i + 4, 2), oh < 24, om < 60 else { return nil }
            offsetMinutes = (oh * 60 + om) * (b[i] == 45 ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(ms)
    }

    /// Days in a month of the proleptic Gregorian calendar.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Milliseconds since 1970 of a calendar day `YYYY-MM-DD` at midnight UTC, or nil when the
    /// text is not one or the calendar has no such day.
    package static func millis(day text: String) -> Int64? {
        // Asked first for every start date a view or check reads: a date-time leaves here without allocating.
        guard text.utf8.count == 10 else { return nil }
        let b = Array(text.utf8)
        guard b[4] == 45, b[7] == 45 else { return nil }
        return millis(text + "T00:00:00Z")
    }

    /// Howard Hinnant's days-from-civil (proleptic Gregorian).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z: Int64) -> (Int, Int, Int) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }
}
