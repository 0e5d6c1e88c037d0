@testable import MusterEvents
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

    /// The quick looks that skip the pass (eight bytes at a time) agree with a byte-by-byte look,
    /// wherever in a word the byte falls and whatever surrounds it.
    @Test func quickLooksAgreeWithByteByByte() {
        var random = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("ab nul{}[]\":,0".utf8) + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x7F, 0x80, 0xC2, 0xC3, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                Bool.random(using: &random) ? UInt8(ascii: "a") : alphabet.randomElement(using: &random) ?? 0
            }
            let control = bytes.contains { $0 == UInt8(ascii: "\\") || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) || $0 == 0x7F || $0 == 0xC2 }
            let null = bytes.count >= 4 && (0...(bytes.count - 4)).contains { Array(bytes[$0..<($0 + 4)]) == Array("null".utf8) }
            bytes.withUnsafeBufferPointer { b in
                #expect(ControlCharacters.mayHoldControl(b) == control, "\(bytes)")
                #expect(ControlCharacters.spellsNull(b) == null, "\(bytes)")
            }
        }
    }
}
