import Foundation
@testable import MusterOFFLEASH
import Testing

/// Reading the app's recurring request, without I/O.
@Suite("Recurring walks: the app's clock and calendar read")
struct SeriesPlanTests {
    @Test(arguments: [("9:00 AM", 540), ("9:00 am", 540), ("9:00 a.m.", 540), ("12:00 PM", 720), ("12:00 AM", 0), ("5:00 pm", 1020),
                      ("21:00", 1260), ("09:30", 570)])
    func clocksTheAppFormatsAreRead(_ text: String, _ minute: Int) {
        #expect(SeriesPlan.minuteOfDay(text) == minute)
    }

    @Test(arguments: ["9:00 午前", "13:00 PM", "0:00 AM", "24:00", "9", "9:0 AM", "", "nine AM", "9:60"])
    func clocksThatCannotBeReadAreRefused(_ text: String) {
        #expect(SeriesPlan.minuteOfDay(text) == nil)
    }

    @Test func theFirstDayIsTheOneWithinADayThatHasTheWeekday() throws {
        let tuesday = try #require(SeriesPlan.day("2026-11-24"))
        #expect(SeriesPlan.firstDay(startDate: tuesday, dayOfWeek: 2).map(SeriesPlan.text) == "2026-11-24")
        #expect(SeriesPlan.firstDay(startDate: tuesday, dayOfWeek: 1).map(SeriesPlan.text) == "2026-11-23")
        #expect(SeriesPlan.firstDay(startDate: tuesday, dayOfWeek: 3).map(SeriesPlan.text) == "2026-11-25")
        #expect(SeriesPlan.firstDay(startDate: tuesday, dayOfWeek: 5) == nil)
        #expect(SeriesPlan.day("2026-02-30") == nil && SeriesPlan.day("2026-2-3") == nil)
    }

    @Test func weeklyBiweeklyAndMonthlyDates() throws {
        let first = try #require(SeriesPlan.day("2026-10-30")) // the fifth Friday of October
        #expect(SeriesPlan.days(from: first, frequency: "weekly", count: 3, until: nil).map(SeriesPlan.text) == ["2026-10-30", "2026-11-06", "2026-11-13"])
        #expect(SeriesPlan.days(from: first, frequency: "biweekly", count: 2, until: nil).map(SeriesPlan.text) == ["2026-10-30", "2026-11-13"])
        // November has four Fridays: the last one stands in for the fifth.
        #expect(SeriesPlan.days(from: first, frequency: "monthly", count: 3, until: nil).map(SeriesPlan.text) == ["2026-10-30", "2026-11-27", "2026-12-25"])
        let until = try #require(SeriesPlan.day("2026-11-20"))
        #expect(SeriesPlan.days(from: first, frequency: "weekly", count: nil, until: until).count == 4, "the end date itself included")
        #expect(SeriesPlan.days(from: first, frequency: "weekly", count: nil, until: nil).count == 60, "never more than the limit")
    }

    @Test func aLocalTimeInAZoneIsOneInstant() throws {
        let day = try #require(SeriesPlan.day("2026-11-24"))
        let denver = try #require(TimeZone(identifier: "America/Denver"))
        #expect(SeriesPlan.instant(day, minuteOfDay: 540, zone: denver) == 1_795_536_000_000) // 16:00 UTC
    }
}
