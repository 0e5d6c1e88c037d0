import Foundation
import MusterEvents
import MusterJSON
import Testing

@Suite("JSONValue reads the same through MusterJSON's one-look path as through Foundation's tries")
struct JSONValueTests {
    @Test func bothDecodersAgree() throws {
        let documents = [
            #"null"#, #"true"#, #"false"#, #"0"#, #"-12"#, #"1.0"#, #"1e2"#, #"1.5"#, #"-103.231"#, #"9223372036854775807"#,
            #"9223372036854775808"#, #""""#, #""a\"b\\c\u00e9""#, #"[]"#, #"[1, "x", null, [2.5]]"#,
            #"{"amount": "42.50", "lat": 44.0805, "n": 3, "ok": true, "none": null, "nested": {"a": [1, {"b": 1e-3}]}}"#,
        ]
        for text in documents {
            let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            let muster = try JSONBytesDecoder().decode(JSONValue.self, from: Array(text.utf8))
            #expect(muster == foundation, "\(text)")
        }
        #expect(try JSONBytesDecoder().decode(JSONValue.self, from: Array(#"{"x": 1.0, "y": 1.25}"#.utf8)) == .object(["x": .integer(1), "y": .number(1.25)]))
    }
}
