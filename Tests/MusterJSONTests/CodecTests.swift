import Foundation
import MusterJSON
import Testing

@Suite("JSON codec: decoding, encoding, limits")
struct CodecTests {
    struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double
        var flags: [Bool]
        var nested: Nested?
        var tags: [String: Int]
        var big: UInt64
        var small: Int8

        struct Nested: Codable, Equatable { var note: String; var values: [Double] }
    }

    static let sample = Sample(name: "Zoë \"quoted\" \\ / \n\t\u{1} 🧭", count: -42, ratio: 0.1, flags: [true, false],
                               nested: .init(note: "", values: [1e-300, 5e300, -0.0, 123456.789]),
                               tags: ["b": 2, "a": 1, "é": 3], big: .max, small: .min)

    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONBytesDecoder().decode(type, from: Array(text.utf8))
    }

    /// A value read as a given string comes back as that string when it reads the same,
    /// escaped or not, and as its own text otherwise.
    @Test func sharedStringsReadAsTheirText() throws {
        let expected = "application/json"
        let bytes = Array(#"{"a":"application/json","b":"application\/json","c":"text/plain","d":1,"e":null}"#.utf8)
        let read = try bytes.withUnsafeBytes { raw in
            try JSONBytesDecoder().withFields(of: raw) { fields in
                try ["a", "b", "c", "e"].map { (key: StaticString) in try fields.string(key, sharing: expected) }
            }
        }
        #expect(read == [expected, expected, "text/plain", nil])
        #expect(throws: DecodingError.self) {
            try bytes.withUnsafeBytes { raw in try JSONBytesDecoder().withFields(of: raw) { try $0.string("d", sharing: expected) } }
        }
    }

    @Test func roundTripsAndAgreesWithFoundation() throws {
        let ours = try JSONBytesEncoder().encode(Self.sample)
        #expect(try JSONBytesDecoder().decode(Sample.self, from: ours) == Self.sample)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(ours)) == Self.sample)
        let foundation = try JSONEncoder().encode(Self.sample)
        #expect(try JSONBytesDecoder().decode(Sample.self, from: Array(foundation)) == Self.sample)
    }

    @Test func keysAreSortedAtEveryLevelAndOutputIsCompact() throws {
        struct Unordered: Encodable { var zeta = 1; var alpha = ["y": 1, "x": 2]; var mid = [Inner()]; struct Inner: Encodable { var b = 1; var a = 2 } }
        let text = String(decoding: try JSONBytesEncoder().encode(Unordered()), as: UTF8.self)
        #expect(text == #"{"alpha":{"x":2,"y":1},"mid":[{"a":2,"b":1}],"zeta":1}"#)
        var unsorted = JSONBytesEncoder()
        unsorted.sortedKeys = false
        #expect(String(decoding: try unsorted.encode(Unordered.Inner()), as: UTF8.self) == #"{"b":1,"a":2}"#)
    }

    @Test func anObjectWrittenByHandIsWhatTheEncoderWrites() throws {
        struct Written: Encodable { var big: UInt64; var small: UInt64; var none: UInt64?; var names: [String]; var n: Int }
        let value = Written(big: .max, small: 7, none: nil, names: ["b", "a\""], n: -3)
        let byHand = try JSONBytesEncoder().encodeObject { object in
            try object.strings("names", value.names) // out of order: put in order as the object closes
            try object.int("big", value.big)
            try object.int("n", value.n)
            try object.int("none", value.none)
            try object.int("small", value.small)
        }
        #expect(String(decoding: byHand, as: UTF8.self) == String(decoding: try JSONBytesEncoder().encode(value), as: UTF8.self))
        #expect(String(decoding: byHand, as: UTF8.self) == #"{"big":18446744073709551615,"n":-3,"names":["b","a\""],"small":7}"#)
    }

    @Test func stringsEscapeOnlyWhatJSONRequires() throws {
        let text = String(decoding: try JSONBytesEncoder().encode(["k": "a\"b\\c/d\u{8}\u{C}\n\r\t\u{1F}é😀"]), as: UTF8.self)
        #expect(text == #"{"k":"a\"b\\c/d\b\f\n\r\t\u001fé😀"}"#)
    }

    @Test func numbersRoundTripExactly() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let double = Double(bitPattern: random.next())
            guard double.isFinite else { continue }
            #expect(try JSONBytesDecoder().decode([Double].self, from: JSONBytesEncoder().encode([double])) == [double])
        }
        #expect(try decode([Int].self, "[9223372036854775807,-9223372036854775808,1e2,1.0]") == [.max, .min, 100, 1])
        #expect(String(decoding: try JSONBytesEncoder().encode([1.0, 0.5, 1e21, -0.0]), as: UTF8.self) == "[1,0.5,1e+21,-0]")
        #expect(throws: DecodingError.self) { try decode([Int].self, "[9223372036854775808]") }
        #expect(throws: DecodingError.self) { try decode([Int].self, "[1.5]") }
        #expect(throws: DecodingError.self) { try decode([UInt8].self, "[-1]") }
        #expect(throws: DecodingError.self) { try decode([Double].self, "[1e400]") }
        #expect(throws: EncodingError.self) { try JSONBytesEncoder().encode([Double.nan]) }
    }

    /// Short decimals take a fast path (digits and a power of ten, both exact): they must read as
    /// the standard library's parser reads their text, at the path's edges too.
    @Test func decimalsReadAsTheirTextDoes() throws {
        var random = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "0.0", "9007199254740992", "9007199254740993", "1e22", "1e23", "1e-22", "1e-23", "4.5e-22",
                     "-103.231", "44.0805", "0.1", "0.30000000000000004", "123456789012345678", "1E+2", "2.5e-0"]
        for _ in 0..<3000 {
            let digits = String(random.next(upperBound: UInt64(1) << UInt64.random(in: 1...60, using: &random)))
            let point = Int.random(in: 0...digits.count, using: &random)
            var text = (random.next() % 2 == 0 ? "-" : "") + digits
            if point < digits.count { text.insert(contentsOf: (point == 0 ? "0." : "."), at: text.index(text.endIndex, offsetBy: -(digits.count - point))) }
            if random.next() % 3 == 0 { text += "e\(Int.random(in: -30...30, using: &random))" }
            texts.append(text)
        }
        for text in texts {
            let ours = try JSONBytesDecoder().decode([Double].self, from: Array("[\(text)]".utf8))
            #expect(ours.map(\.bitPattern) == [Double(text)].compactMap { $0?.bitPattern }, "\(text)")
        }
    }

    /// Keys stored in order let a lookup answer "absent" early; reads in any order, of present and
    /// absent keys, must still find exactly what is there (sorted and unsorted text alike).
    @Test func lookupsInAnyOrderFindWhatIsThere() throws {
        struct Reader: Decodable, Equatable {
            var e, a, c: Int
            var b, d, f, z: Int?
            enum CodingKeys: String, CodingKey { case e, b, a, d, c, f, z }
        }
        let expected = Reader(e: 5, a: 1, c: 3, b: nil, d: nil, f: nil, z: nil)
        for text in [#"{"a":1,"c":3,"e":5}"#, #"{"e":5,"c":3,"a":1}"#, #"{"a":1,"c":3,"e":5,"g":7}"#, #"{"\u0061":1,"c":3,"e":5}"#] {
            #expect(try decode(Reader.self, text) == expected, "\(text)")
        }
    }

    @Test func duplicateKeysAreRefusedAtAnySize() throws {
        for text in [#"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#,
                     "{" + (0..<40).map { #""k\#($0)":0"# }.joined(separator: ",") + #","k7":1}"#] {
            let error = #expect(throws: DecodingError.self) { try decode([String: Int].self, text) }
            guard case .dataCorrupted(let context)? = error else { continue }
            #expect((context.underlyingError as? JSONError)?.code == .duplicateKey, "\(text)")
        }
        #expect(try decode([String: Int].self, #"{"a":1,"b":2}"#) == ["a": 1, "b": 2])
    }

    @Test func depthAndSizeAreBounded() throws {
        let deep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        let error = #expect(throws: DecodingError.self) { try decode([JSONAny].self, deep) }
        if case .dataCorrupted(let context)? = error { #expect((context.underlyingError as? JSONError)?.code == .tooDeep) }
        var small = JSONBytesDecoder()
        small.limits.maxBytes = 10
        #expect(throws: DecodingError.self) { try small.decode(String.self, from: Array(#""0123456789""#.utf8)) }
    }

    @Test func errorsNameThePathLikeFoundation() throws {
        struct Outer: Decodable { var items: [Inner]; struct Inner: Decodable { var id: String; var size: Int } }
        let missing = #expect(throws: DecodingError.self) { try decode(Outer.self, #"{"items":[{"id":"a","size":1},{"id":"b"}]}"#) }
        if case .keyNotFound(let key, let context)? = missing {
            #expect(key.stringValue == "size" && context.codingPath.map(\.stringValue) == ["items", "Index 1"] || context.codingPath.map(\.stringValue) == ["items", "1"])
        } else { Issue.record("\(String(describing: missing))") }
        let wrong = #expect(throws: DecodingError.self) { try decode(Outer.self, #"{"items":[{"id":7,"size":1}]}"#) }
        if case .typeMismatch(_, let context)? = wrong { #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["items", "0", "id"]) }
        else { Issue.record("\(String(describing: wrong))") }
        let null = #expect(throws: DecodingError.self) { try decode(Outer.self, #"{"items":null}"#) }
        if case .valueNotFound? = null {} else { Issue.record("\(String(describing: null))") }
    }
}

/// Any JSON value, for tests that only need something to decode into.
indirect enum JSONAny: Decodable {
    case array([JSONAny]), other
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONAny] = []
            while !array.isAtEnd { items.append(try array.decode(JSONAny.self)) }
            self = .array(items)
        } else {
            self = .other
        }
    }
}
