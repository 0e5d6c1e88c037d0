import MusterEvents
import Testing

@Suite("Validate: UUIDs and timestamps as the JSON Schemas state them")
struct ValidateTests {
    static func passes(_ check: () throws -> Void) -> Bool { (try? check()) != nil }

    @Test func timestamps() {
        let good = ["2026-02-10T19:23:45Z", "2026-02-10T19:23:45.1Z", "2026-02-10T19:23:45.123456789Z", "2024-02-29T00:00:00Z"]
        let bad = ["2026-02-10T19:23:45", "2026-02-10T19:23:45.Z", "2026-02-10T19:23:45.1234567890Z", "2026-02-10 19:23:45Z",
                   "2026-02-31T00:00:00Z", "2026-2-10T19:23:45Z", "2026-02-10T19:23:45+00:00", "2026-02-10T19:23:4aZ", "", "Z",
                   "2026-02-10T19:23:45,1Z", "2026-02-10T19:23:45.1aZ", "２０２６-02-10T19:23:45Z"]
        for value in good { #expect(Self.passes { try Validate.timestamp(value, field: "/t") }, "\(value)") }
        for value in bad { #expect(!Self.passes { try Validate.timestamp(value, field: "/t") }, "\(value)") }
    }

    @Test func uuids() {
        #expect(Self.passes { try Validate.uuid("6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5c", field: "/id") })
        for value in ["6F1C2B1E-2D4A-4B5E-9A3C-0D1E2F3A4B5C", "6f1c2b1e2d4a-4b5e-9a3c-0d1e2f3a4b5c-", "6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5",
                      "6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5cc", "6f1c2b1e-2d4a-4b5e-9a3c_0d1e2f3a4b5c", "", "6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5é"] {
            #expect(!Self.passes { try Validate.uuid(value, field: "/id") }, "\(value)")
        }
    }

    /// Lengths count characters (scalars while an append checks), whichever way the count is
    /// reached: at once from the byte count, or by walking the text.
    @Test func lengthsCountCharactersNotBytes() {
        func fits(_ value: String, _ range: ClosedRange<Int>, scalars: Bool = false) -> Bool {
            Validate.$measuresScalars.withValue(scalars) { Self.passes { try Validate.length(value, range, field: "/t") } }
        }
        #expect(fits("abc", 1...3) && fits("", 0...3) && !fits("", 1...3) && !fits("abcd", 1...3))
        #expect(fits("ééé", 1...3) && !fits("éééé", 1...3)) // six bytes, three characters
        #expect(fits("ab", 2...3) && !fits("a", 2...3) && !fits("é", 2...3)) // two bytes, one character
        #expect(fits("👍🏽", 1...1) && !fits("👍🏽", 1...1, scalars: true) && fits("👍🏽", 2...2, scalars: true))
        #expect(fits("\r\n", 1...1) && fits("\r\n", 2...2, scalars: true))
    }
}
