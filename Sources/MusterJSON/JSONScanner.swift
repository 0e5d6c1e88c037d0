/// One pass over the bytes of a JSON text (RFC 8259) that checks everything and records each
/// value as a token: no dictionaries, no strings made, nothing decoded yet. Refuses what is not
/// JSON, strings that are not UTF-8 (lone surrogate escapes included), nesting past the limit and
/// an object that names a key twice.
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var index = 0
    private(set) var tokens: [JSONToken] = []

    /// Scans a whole document: one value, whitespace around it allowed.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) throws(JSONError) -> [JSONToken] {
        guard bytes.count <= limits.maxBytes else {
            throw JSONError(.tooLarge, at: limits.maxBytes, "longer than \(limits.maxBytes) bytes")
        }
        var scanner = JSONScanner(bytes: bytes, limits: limits)
        scanner.tokens.reserveCapacity(bytes.count / 12 + 4)
        try scanner.value(depth: 0)
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { throw scanner.failure("unexpected text after the value") }
        return scanner.tokens
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    private func failure(_ message: String, _ code: JSONError.Code = .syntax) -> JSONError {
        JSONError(code, at: index, message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONError) {
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true", .true)
        case UInt8(ascii: "f"): try literal("false", .false)
        case UInt8(ascii: "n"): try literal("null", .null)
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONToken.Kind) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("unexpected character")
        }
        tokens.append(JSONToken(kind: kind, flag: false, start: UInt32(index), length: UInt32(count), count: 0))
        index += count
    }

    /// `index` is at `byte` (after whitespace), or this throws.
    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(what)") }
        index += 1
    }

    private mutating func object(depth: Int) throws(JSONError) {
        guard depth <= limits.maxDepth else { throw failure("nested deeper than \(limits.maxDepth)", .tooDeep) }
        let at = tokens.count
        tokens.append(JSONToken(kind: .object, flag: false, start: UInt32(index), length: 0, count: 0))
        index += 1
        skipWhitespace()
        var pairs: UInt32 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
                try string()
                try expect(UInt8(ascii: ":"), "':' after a key")
                try value(depth: depth)
                pairs += 1
                skipWhitespace()
                guard index < bytes.count else { throw failure("unexpected end of input in an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw failure("expected ',' or '}'")
            }
        }
        tokens[at].length = UInt32(tokens.count - at - 1)
        tokens[at].count = pairs
        try markOrRefuseDuplicateKeys(object: at)
    }

    private mutating func array(depth: Int) throws(JSONError) {
        guard depth <= limits.maxDepth else { throw failure("nested deeper than \(limits.maxDepth)", .tooDeep) }
        let at = tokens.count
        tokens.append(JSONToken(kind: .array, flag: false, start: UInt32(index), length: 0, count: 0))
        index += 1
        skipWhitespace()
        var elements: UInt32 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                try value(depth: depth)
                elements += 1
                skipWhitespace()
                guard index < bytes.count else { throw failure("unexpected end of input in an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                throw failure("expected ',' or ']'")
            }
        }
        tokens[at].length = UInt32(tokens.count - at - 1)
        tokens[at].count = elements
    }

    private mutating func string() throws(JSONError) {
        index += 1 // the opening quote
        let start = index
        var escaped = false
        while true {
            // Plain ASCII runs first: most of a document; eight bytes at a time, and where a word
            // holds a quote, a backslash, a control character or a byte past ASCII, straight to
            // the first such byte (the masks' lowest flag is exactly it: see `ByteWord`).
            if let base = bytes.baseAddress {
                while index + 8 <= bytes.count {
                    let special = Self.plainRunEnds(ByteWord.loadLittleEndian(base + index))
                    if special == 0 { index += 8; continue }
                    index += special.trailingZeroBitCount >> 3
                    break
                }
            }
            if index + 8 > bytes.count {
                // The last few bytes of the document, one by one.
                while index < bytes.count {
                    let byte = bytes[index]
                    guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                    index += 1
                }
            }
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try escape()
            } else if byte < 0x20 {
                throw failure("control character in a string (escape it)")
            } else {
                try utf8Sequence()
            }
        }
        tokens.append(JSONToken(kind: .string, flag: escaped, start: UInt32(start), length: UInt32(index - start), count: 0))
        index += 1 // the closing quote
    }

    /// Nonzero when any of eight bytes is `"`, `\\`, below 0x20 or above 0x7F; its lowest set bit is
    /// in the first such byte (the words are loaded little-endian).
    @inline(__always)
    static func plainRunEnds(_ word: UInt64) -> UInt64 {
        ByteWord.pastASCII(word) | ByteWord.below(word, 0x20) | ByteWord.equal(word, UInt8(ascii: "\"")) | ByteWord.equal(word, UInt8(ascii: "\\"))
    }

    /// At a backslash: one valid escape; a `\u` high surrogate must be followed by a low one.
    private mutating func escape() throws(JSONError) {
        guard index + 1 < bytes.count else { throw failure("unterminated string") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: index + 2)
            index += 6
            if (0xDC00...0xDFFF).contains(unit) { throw failure("lone low surrogate escape", .invalidUTF8) }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                      (0xDC00...0xDFFF).contains(try hexUnit(at: index + 2)) else {
                    throw failure("high surrogate escape without its low half", .invalidUTF8)
                }
                index += 6
            }
        default:
            throw failure("invalid escape")
        }
    }

    private func hexUnit(at position: Int) throws(JSONError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw failure("unterminated \\u escape") }
        var unit: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = JSONScanner.hexValue(bytes[position + offset]) else { throw failure("invalid \\u escape") }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// At a byte ≥ 0x80: one well-formed UTF-8 sequence (no overlong forms, no surrogates, ≤ U+10FFFF).
    private mutating func utf8Sequence() throws(JSONError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw failure("invalid UTF-8", .invalidUTF8)
        }
        guard index + length <= bytes.count else { throw failure("truncated UTF-8", .invalidUTF8) }
        guard secondRange.contains(bytes[index + 1]) else { throw failure("invalid UTF-8", .invalidUTF8) }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            throw failure("invalid UTF-8", .invalidUTF8)
        }
        index += length
    }

    private mutating func number() throws(JSONError) {
        let start = index
        var fractional = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw failure("a number without digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if try digits() == 0 {
            throw failure("a number without digits")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractional = true
            guard try digits() > 0 else { throw failure("a fraction without digits") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            fractional = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw failure("an exponent without digits") }
        }
        tokens.append(JSONToken(kind: .number, flag: fractional, start: UInt32(start), length: UInt32(index - start), count: 0))
    }

    private mutating func digits() throws(JSONError) -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    // MARK: Duplicate keys

    /// Keys in strictly rising order cannot repeat, and let lookups stop early: such an object (most
    /// of what Muster reads, since the log stores keys sorted) is marked, and any other has its keys
    /// compared, as their unescaped UTF-8 bytes.
    private mutating func markOrRefuseDuplicateKeys(object at: Int) throws(JSONError) {
        let rising = try tokens.withUnsafeBufferPointer { tokens throws(JSONError) in
            let document = JSONDocument(bytes: bytes, tokens: tokens)
            if document.keysStrictlyRise(object: at) { return true }
            try refuseDuplicateKeys(object: at, in: document)
            return false
        }
        tokens[at].flag = rising
    }

    private func refuseDuplicateKeys(object at: Int, in document: JSONDocument) throws(JSONError) {
        let pairs = Int(document.tokens[at].count)
        if pairs <= 24 {
            // Small objects (nearly all): pairwise, without allocating.
            var key = at + 1
            for _ in 0..<pairs {
                var earlier = at + 1
                while earlier < key {
                    if document.sameKey(key, earlier) { throw duplicate(document, key) }
                    earlier = document.next(after: earlier + 1)
                }
                key = document.next(after: key + 1)
            }
        } else {
            var seen = Set<[UInt8]>(minimumCapacity: pairs)
            var key = at + 1
            for _ in 0..<pairs {
                if !seen.insert(document.unescapedBytes(at: key)).inserted { throw duplicate(document, key) }
                key = document.next(after: key + 1)
            }
        }
    }

    private func duplicate(_ document: JSONDocument, _ key: Int) -> JSONError {
        JSONError(.duplicateKey, at: Int(document.tokens[key].start), "duplicate key \(document.string(at: key).debugDescription)")
    }
}
