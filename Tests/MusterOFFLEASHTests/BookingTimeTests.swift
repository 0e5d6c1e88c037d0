import Foundation
import MusterEvents
import MusterPlatform
@testable import MusterOFFLEASH
import Testing

/// Point 9 of the authorization review: `POST /bookings` took `2026-11-26T24:00:00Z` (Foundation
/// rolls it into the next day) and a start in the year 2100.
@Suite("Booking times: real, and within the booking window")
struct BookingTimeTests {
    @Test func aTimeNoClockShowsIsRefused() {
        for text in ["2026-11-26T24:00:00Z", "2026-11-26T23:60:00Z", "2026-11-26T24:00:00+00:00", "2026-11-26T24:00:00+0000"] {
            #expect(ContractDates.parse(text) == nil, "\(text)")
        }
        #expect(ContractDates.parse("2026-11-26T23:59:59Z") != nil)
        #expect(ContractDates.parse("2026-11-26T10:00:00+0000") != nil, "an offset without a colon still reads")
    }

    @Test func aStartPastTheWindowIsRefused() throws {
        let now = Date()
        #expect(throws: OFFLEASHError.self) { try Walks.checkWindow(try #require(Timestamp.millis("2100-01-01T10:00:00Z")), now: now) }
        #expect(throws: OFFLEASHError.self) { try Walks.checkWindow(Timestamp.millis(now) + 366 * 86_400_000, now: now) }
        try Walks.checkWindow(Timestamp.millis(now) + 30 * 86_400_000, now: now)
    }
}
