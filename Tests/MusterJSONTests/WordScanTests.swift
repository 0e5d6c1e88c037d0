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

@Suite("Hand readers: nested objects without decoders of their own")
struct HandReaderNestingTests {
    /// `depth` objects, each under the key `k<level>`, with a value at the bottom; every fourth
    /// level an array of one object instead (`k<level>` then `[ … ]`).
    static func nested(_ depth: Int, bottom: String) -> (text: [UInt8], path: [String]) {
        var (open, close, path) = ("", "", [String]())
        for level in 0..<depth {
            if level % 4 == 3 {
                open += #"{"k\#(level)":["#
                close = "]}" + close
                path += ["k\(level)", "0"]
            } else {
                open += #"{"k\#(level)":"#
                close = "}" + close
                path.append("k\(level)")
            }
        }
        return (Array((open + #"{"a":1,"v":\#(bottom),"z":2}"# + close).utf8), path)
    }

    /// The levels' keys (`JSONFields` takes literals).
    static let keys: [StaticString] = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11"]

    /// Walks down `path` by hand (objects and arrays of objects) and reads `v` as a string.
    static func readDown(_ raw: UnsafeRawBufferPointer, depth: Int) throws -> String? {
        try JSONBytesDecoder().withFields(of: raw) { root in
            func down(_ fields: JSONFields, _ level: Int) throws -> String? {
                guard level < depth else {
                    // Around the value, members before and after it (the cursor's moves).
                    _ = try fields.int("z"); _ = try fields.int("a")
                    return try fields.string("v")
                }
                if level % 4 == 3 {
                    return try fields.objects(Self.keys[level]) { try down($0, level + 1) }?.first ?? nil
                }
                return try down(fields.required(fields.object(Self.keys[level]), Self.keys[level]), level + 1)
            }
            return try down(root, 0)
        }
    }

    @Test func valuesAndErrorsAtEveryDepthMatchADecodablesPath() throws {
        for depth in 0...12 {
            let good = Self.nested(depth, bottom: #""x""#)
            #expect(try good.text.withUnsafeBytes { try Self.readDown($0, depth: depth) } == "x", "depth \(depth)")
            let bad = Self.nested(depth, bottom: "[1]")
            do {
                _ = try bad.text.withUnsafeBytes { try Self.readDown($0, depth: depth) }
                Issue.record("an array read as a string at depth \(depth)")
            } catch DecodingError.typeMismatch(_, let context) {
                #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == bad.path + ["v"], "depth \(depth)")
            }
        }
    }

    /// Sibling objects at one depth share a cursor: reading them in turns finds every member.
    @Test func siblingsReadInTurnsFindTheirMembers() throws {
        let text = Array(#"{"p":{"a":1,"b":2,"c":3},"q":{"a":4,"b":5,"c":6}}"#.utf8)
        let read = try text.withUnsafeBytes { raw in
            try JSONBytesDecoder().withFields(of: raw) { root -> [Int?] in
                let (p, q) = (try root.required(root.object("p"), "p"), try root.required(root.object("q"), "q"))
                return [try p.int("a"), try q.int("a"), try p.int("b"), try q.int("c"), try p.int("c"), try q.int("b"), try p.int("d")]
            }
        }
        #expect(read == [1, 4, 2, 6, 3, 5, nil])
    }
}
