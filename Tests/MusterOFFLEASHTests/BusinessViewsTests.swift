import Foundation
@testable import MusterOFFLEASH
import Testing

/// The console's dates and times are worked out with the calendar, not a `DateFormatter` each: they
/// must read as the formatter's did, in any zone, and a week is seven days when the clocks change.
@Suite("The business console's dates and times")
struct BusinessViewsTests {
    static func formatter(_ zone: TimeZone, _ format: String) -> (Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = format
        return { formatter.string(from: Date(timeIntervalSince1970: Double($0) / 1000)) }
    }

    @Test(arguments: ["America/Chicago", "Europe/Paris", "Asia/Kolkata", "Australia/Lord_Howe", "UTC", "Pacific/Chatham"])
    func readAsTheFormatterDid(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var generator = SystemRandomNumberGenerator()
        let (label, clock, dated) = (Self.formatter(zone, "yyyy-MM-dd"), Self.formatter(zone, "HH:mm"), Self.formatter(zone, "EEE d MMM HH:mm"))
        // Random moments from 1970 to 2100, and every 45 minutes of this year (its clock changes among them).
        let moments = (0..<1_000).map { _ in Int64.random(in: 0...4_102_444_800_000, using: &generator) }
            + (0..<(366 * 32)).map { 1_767_225_600_000 + Int64($0) * 2_700_000 }
        var wrong: [String] = []
        for millis in moments where LocalDates.label(millis, zone) != label(millis) || LocalDates.time(millis, zone, withDate: false) != clock(millis)
            || LocalDates.time(millis, zone, withDate: true) != dated(millis) {
            wrong.append("\(millis): \(LocalDates.time(millis, zone, withDate: true)) vs \(dated(millis))")
        }
        #expect(wrong.isEmpty, "\(identifier): \(wrong.prefix(5))")
    }

    @Test func aWeekAcrossAClockChangeIsSevenDays() throws {
        let zone = try #require(TimeZone(identifier: "America/Chicago"))
        // The week of Sunday 1 November 2026, whose day is 25 hours long, and of Sunday 8 March 2026 (23 hours).
        for first in ["2026-10-29", "2026-03-05"] {
            let (start, label) = BusinessViews.dayStart(first, zone: zone)
            #expect(label == first)
            let days = (0...7).map { LocalDates.label(LocalDates.day($0, after: start, zone), zone) }
            #expect(Set(days).count == 8, "\(days)")
            #expect(LocalDates.label(LocalDates.day(-7, after: start, zone), zone) < first)
            for day in 0...7 {
                #expect(LocalDates.time(LocalDates.day(day, after: start, zone), zone, withDate: false) == "00:00")
            }
        }
    }

    @Test func aMessageGivesTheWalksTimeOnATwentyFourHourClock() {
        // Friday 12 December 2025, 14:00 and 09:05 UTC.
        #expect(OFFLEASHNotifications.when(1_765_548_000_000) == "Fri 12 Dec at 14:00 UTC")
        #expect(OFFLEASHNotifications.when(1_765_530_300_000) == "Fri 12 Dec at 09:05 UTC")
    }
}
