import MusterEvents
import Testing

/// The one scan behind "no control characters and no nulls in what is stored": which field it
/// names, what it lets through, and that it reads any bytes.
@Suite("Control characters and nulls in JSON")
struct ControlCharactersTests {
    func field(_ json: String) -> String? { ControlCharacters.firstField(inJSON: Array(json.utf8)) }
    func null(_ json: String) -> String? { ControlCharacters.firstNull(inJSON: Array(json.utf8)) }

    @Test func namesTheFieldAsAJSONPointer() {
        #expect(field(#"{"data":{"action":{"description":"out\u0000"}}}"#) == "/data/action/description")
        #expect(field(#"{"a":[{"b":"ok"},{"b":"x\r"}]}"#) == "/a/1/b")
        #expect(field(#"{"a~b/c":"\u001b[31m"}"#) == "/a~0b~1c")
        #expect(field(#"{"k\u0007":"v"}"#) == #"/k\u0007"#) // a key is named as it was written
        #expect(field(#""\b""#) == "")
    }

    @Test func tabNewlineAndEveryOtherScriptPass() {
        #expect(field(#"{"a":"tab\there\nnext","b":"Ünïcødé 🚩 ناصر 東京 \u00e9"}"#) == nil)
        #expect(field(#"{"a":"escaped quote \" and backslash \\ stay text"}"#) == nil)
    }

    @Test func c1AndDeleteAreControlsRawOrEscaped() {
        #expect(field("{\"a\":\"x\u{85}y\"}") == "/a")
        #expect(field("{\"a\":\"x\u{7F}y\"}") == "/a")
        #expect(field(#"{"a":"x\u009fy"}"#) == "/a")
    }

    @Test func nullsAreFoundOutsideStringsOnly() {
        #expect(null(#"{"a":"null","b":[1,null]}"#) == "/b/1")
        #expect(null(#"{"a":"nullable","b":{"c":true}}"#) == nil)
    }

    @Test func anyBytesAreReadWithoutTrapping() {
        for text in ["", "\"", "\\", "{\"a\":\"\\u12", "[[[[", "}}}]]", "{\"a\"", "\"\\u", "n", "nul"] {
            _ = field(text)
            _ = null(text)
        }
    }
}
