import Foundation
import MusterJSON
import MusterTesting
import Testing

/// The scanner reads strings eight bytes at a time and jumps to the first byte that ends a plain
/// run (a quote, a backslash, a control character, a byte past ASCII); keys compare eight bytes
/// at a time. These put every such byte at every offset within a word, and strings at every
/// distance from the document's end (where the last few bytes are read one by one), and hold
/// the answers to Foundation's.
@Suite("JSON codec: words at a time")
struct WordScanTests {
    /// What can follow a plain run, as it stands in the JSON text (valid or not).
    static let interruptions: [[UInt8]] = [
        Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83e\udded"#.utf8),
        Array("é".utf8), Array("€".utf8), Array("🧭".utf8), [0x7F],
        [0x01], [0x1F], [0xFF], [0xC3], [0xED, 0xA0, 0x80], // refused: control characters, bad or surrogate UTF-8
        Array(#"\x"#.utf8),
    ]

    @Test func everyStopInEveryPlaceAgreesWithFoundation() throws {
        var checked = 0
        for interruption in Self.interruptions {
            for before in 0...17 {
                for after in [0, 1, 6, 7, 8, 9, 15] {
                    for tail in 0...9 {
                        var text = Array(#"{"k":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: before) + interruption
                        text += Array(repeating: UInt8(ascii: "b"), count: after) + Array(#""}"#.utf8)
                        text += Array(repeating: UInt8(ascii: " "), count: tail)
                        let theirs = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: String]
                        let ours = try? JSONBytesDecoder().decode([String: String].self, from: text)
                        #expect(ours == theirs, "\(String(decoding: text, as: UTF8.self).debugDescription)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == Self.interruptions.count * 18 * 7 * 10)
    }

    @Test func anUnterminatedStringIsRefusedAtAnyLength() {
        for length in 0...20 {
            let text = Array(#"[""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: length)
            #expect(throws: DecodingError.self) { try JSONBytesDecoder().decode([String].self, from: text) }
        }
    }

    @Test func bytesCompareAsTheirOrder() {
        var random = SplitMix(seed: 59)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...20, using: &random)
            let a = (0..<length).map { _ in UInt8.random(in: 0...3, using: &random) * 85 }
            // Often a copy changed in one place or cut short, so long shared prefixes are common.
            var b = a
            switch Int.random(in: 0...2, using: &random) {
            case 0 where !b.isEmpty: b[Int.random(in: 0..<b.count, using: &random)] = UInt8.random(in: 0...3, using: &random) * 85
            case 1: b = Array(b.prefix(Int.random(in: 0...b.count, using: &random)))
            default: b = (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) * 85 }
            }
            let ours = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in ByteWord.compare(a, b) } }
            let expected = a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
            #expect(ours.signum() == expected, "\(a) \(b)")
        }
    }

    /// Keys in rising order let a lookup stop early; a key sorted by its first differing byte past
    /// the eighth must still be told apart.
    @Test func longKeysThatShareAPrefixAreFound() throws {
        struct Long: Decodable, Equatable {
            var abcdefghijA: Int
            var abcdefghijB: Int
            var abcdefghijBz: Int?
            var abcdefghijC: Int?
        }
        let rising = #"{"abcdefghijA":1,"abcdefghijB":2,"abcdefghijC":3}"#
        #expect(try JSONBytesDecoder().decode(Long.self, from: Array(rising.utf8)) == Long(abcdefghijA: 1, abcdefghijB: 2, abcdefghijBz: nil, abcdefghijC: 3))
        let unordered = #"{"abcdefghijC":3,"abcdefghijA":1,"abcdefghijB":2}"#
        #expect(try JSONBytesDecoder().decode(Long.self, from: Array(unordered.utf8)) == Long(abcdefghijA: 1, abcdefghijB: 2, abcdefghijBz: nil, abcdefghijC: 3))
    }

    /// A hand reader's nested objects name their path in errors, as a `Decodable`'s do.
    @Test func nestedHandReadersNameThePath() throws {
        let text = Array(#"{"a":{"b":[{"c":1}]}}"#.utf8)
        do {
            _ = try text.withUnsafeBytes { raw in
                try JSONBytesDecoder().withFields(of: raw) { root in
                    try root.required(root.object("a"), "a").objects("b") { try $0.string("c") }
                }
            }
            Issue.record("a number read as a string")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["a", "b", "0", "c"])
        }
    }
}
