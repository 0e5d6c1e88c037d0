import Foundation
import MusterEvents
import Testing

@Suite("Timestamps written and read as RFC 3339 UTC")
struct TimestampTests {
    /// Foundation's ISO 8601 style for the whole seconds (its fraction comes from a Double, which
    /// is a millisecond off now and then), the milliseconds written by hand.
    static func reference(_ millis: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(millis / 1000))
        let seconds = date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let ms = String(millis % 1000)
        return seconds.dropLast() + "." + String(repeating: "0", count: 3 - ms.count) + ms + "Z"
    }

    @Test func writesWhatFoundationWritesAndReadsItBack() {
        var generator = SystemRandomNumberGenerator()
        // 1970 to 9999 at random, and the edges of days, years and the range.
        let edges: [Int64] = [0, 1, 999, 1_000, 86_399_999, 86_400_000, 951_782_400_000, 1_767_225_599_999, 253_402_300_799_999]
        for millis in edges + (0..<5_000).map({ _ in Int64.random(in: 0...253_402_300_799_999, using: &generator) }) {
            let text = Timestamp.string(millis: millis)
            #expect(text == Self.reference(millis), "millis \(millis)")
            #expect(Timestamp.millis(text) == millis)
            #expect(Timestamp.string(millis: millis, fraction: false) == String(text.prefix(19)) + "Z")
        }
    }

    @Test func yearsOutsideFourDigitsStillRoundTrip() {
        for millis: Int64 in [-1, -86_400_001, -62_135_596_800_000, 253_402_300_800_000] {
            let text = Timestamp.string(millis: millis)
            #expect(text.hasSuffix("Z"))
            #expect(text.count >= 24)
        }
        #expect(Timestamp.string(millis: -1) == "1969-12-31T23:59:59.999Z")
    }
}
