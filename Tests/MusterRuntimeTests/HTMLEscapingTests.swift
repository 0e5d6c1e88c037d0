import MusterRuntime
import Testing

@Suite("HTML escaping")
struct HTMLEscapingTests {
    /// Text stored before control characters were refused never reaches a page raw.
    @Test func pagesShowStoredControlCharactersAsReplacementCharacters() {
        #expect(escapeHTML("a\u{0}b\r\nc\u{1B}[31m<\u{85}>\td") == "a\u{FFFD}b\nc\u{FFFD}[31m&lt;\u{FFFD}&gt;\td")
    }
}
