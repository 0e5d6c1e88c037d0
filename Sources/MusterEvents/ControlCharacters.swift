import MusterJSON

/// Finds text that carries control characters in encoded JSON, so nothing invisible reaches the
/// log (a `\u0000` in a description, a `\u001b` escape sequence in a moderation page).
///
/// Tab and newline are text; every other C0 control, DEL and the C1 controls are not. The check
/// runs on the bytes an append is about to store, which covers every text field of every event
/// type in one place, and never on stored events (what a log already holds is folded as it is).
package enum ControlCharacters {
    enum Component {
        case key([UInt8])
        case index(Int)
    }

    /// The JSON pointer (`/data/action/description`) of the first string, or object key, that
    /// holds a control character other than tab and newline; nil when there is none. Reads any
    /// bytes without trapping: malformed JSON yields a best-effort pointer or nil.
    package static func firstField(inJSON bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { firstField(in: $0) }
    }

    package static func firstField(inJSON raw: UnsafeRawBufferPointer) -> String? {
        firstField(in: raw.bindMemory(to: UInt8.self))
    }

    static func firstField(in b: UnsafeBufferPointer<UInt8>) -> String? {
        scan(b, findingNull: false)
    }

    /// The JSON pointer of the first `null` value, or nil when there is none: request bodies
    /// leave an absent field out, so a `null` is a value of the wrong type.
    package static func firstNull(inJSON raw: UnsafeRawBufferPointer) -> String? {
        scan(raw.bindMemory(to: UInt8.self), findingNull: true)
    }

    package static func firstNull(inJSON bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { scan($0, findingNull: true) }
    }

    /// One pass over the bytes, keeping the path; stops at the first string holding a control
    /// character, or (with `findingNull`) at the first `null` literal outside a string.
    static func scan(_ b: UnsafeBufferPointer<UInt8>, findingNull: Bool) -> String? {
        guard findingNull ? spellsNull(b) : mayHoldControl(b) else { return nil }
        var path: [Component] = []
        var inObject: [Bool] = []
        var expectingKey = false
        var i = 0
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "{"):
                inObject.append(true)
                path.append(.key([]))
                expectingKey = true
                i += 1
            case UInt8(ascii: "["):
                inObject.append(false)
                path.append(.index(0))
                expectingKey = false
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = inObject.popLast()
                _ = path.popLast()
                expectingKey = false
                i += 1
            case UInt8(ascii: ","):
                if inObject.last == true {
                    expectingKey = true
                } else if case .index(let k)? = path.last {
                    path[path.count - 1] = .index(k + 1)
                }
                i += 1
            case UInt8(ascii: "\""):
                let (end, bad) = scanString(b, from: i + 1)
                if expectingKey, !path.isEmpty {
                    path[path.count - 1] = .key(Array(b[(i + 1)..<end]))
                    expectingKey = false
                }
                if bad, !findingNull { return pointer(path) }
                i = end + 1
            case UInt8(ascii: "n") where findingNull:
                if i + 4 <= b.count, b[i + 1] == UInt8(ascii: "u"), b[i + 2] == UInt8(ascii: "l"), b[i + 3] == UInt8(ascii: "l") {
                    return pointer(path)
                }
                i += 1
            default:
                i += 1
            }
        }
        return nil
    }

    /// Whether any string can hold a control character: not unless the bytes have a backslash,
    /// a raw C0 byte other than tab and newline, DEL, or C2 (the C1 controls' lead byte). One
    /// cheap pass before the one that keeps the path: most bodies (a 100 KB sync batch) have none.
    static func mayHoldControl(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time: a word with none of the four kinds of byte is skipped whole; one
        // that may have one (tabs and newlines of indented JSON look alike) is looked at byte by byte.
        var i = 0
        if let base = b.baseAddress {
            while i + 8 <= b.count {
                let word = ByteWord.load(base + i)
                if ByteWord.below(word, 0x20) | ByteWord.equal(word, UInt8(ascii: "\\")) | ByteWord.equal(word, 0x7F)
                    | ByteWord.equal(word, 0xC2) != 0, UnsafeBufferPointer(rebasing: b[i..<(i + 8)]).contains(where: isSuspect) {
                    return true
                }
                i += 8
            }
        }
        return b[i...].contains(where: isSuspect)
    }

    @inline(__always)
    private static func isSuspect(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "\\") || (c < 0x20 && c != 0x09 && c != 0x0A) || c == 0x7F || c == 0xC2
    }

    /// Whether the bytes spell `null` anywhere (in a string or not): no `null` literal otherwise.
    static func spellsNull(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time while none of them is an `n`.
        var i = 0
        while i + 4 <= b.count {
            if let base = b.baseAddress, i + 8 <= b.count {
                if ByteWord.equal(ByteWord.load(base + i), UInt8(ascii: "n")) == 0 {
                    i += 8
                    continue
                }
            }
            if b[i] == UInt8(ascii: "n"), b[i + 1] == UInt8(ascii: "u"), b[i + 2] == UInt8(ascii: "l"), b[i + 3] == UInt8(ascii: "l") { return true }
            i += 1
        }
        return false
    }

    /// Reads a string body from `start`; returns the index of its closing quote (or the end) and
    /// whether it holds a control character, raw or escaped.
    static func scanString(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, bad: Bool) {
        var j = start
        var bad = false
        while j < b.count, b[j] != UInt8(ascii: "\"") {
            let c = b[j]
            if c == UInt8(ascii: "\\") {
                guard j + 1 < b.count else { return (b.count, bad) }
                switch b[j + 1] {
                case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "r"):
                    bad = true
                    j += 2
                case UInt8(ascii: "u"):
                    if let value = hex4(b, at: j + 2), isControl(value) { bad = true }
                    j += 6
                default:
                    j += 2
                }
            } else {
                // Raw bytes: C0 controls and DEL are single bytes; bytes 80–9F are UTF-8
                // continuation bytes, and the C1 controls (U+0080–U+009F) are C2 80 … C2 9F.
                if c < 0x20 ? (c != 0x09 && c != 0x0A) : c == 0x7F { bad = true }
                if c == 0xC2, j + 1 < b.count, (0x80...0x9F).contains(b[j + 1]) { bad = true }
                j += 1
            }
        }
        return (min(j, b.count), bad)
    }

    /// A control character other than tab and newline: C0, DEL or C1.
    package static func isControl(_ scalar: UInt32) -> Bool {
        (scalar < 0x20 && scalar != 0x09 && scalar != 0x0A) || (0x7F...0x9F).contains(scalar)
    }

    static func hex4(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        guard start >= 0, start + 4 <= b.count else { return nil }
        var value: UInt32 = 0
        for k in start..<(start + 4) {
            let c = b[k]
            let digit: UInt8
            switch c {
            case 48...57: digit = c - 48
            case 65...70: digit = c - 55
            case 97...102: digit = c - 87
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    static func pointer(_ path: [Component]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key):
                let name = String(decoding: key, as: UTF8.self)
                text += "/" + name.replacingTildeAndSlash()
            case .index(let index):
                text += "/\(index)"
            }
        }
        return text
    }
}

extension String {
    /// JSON pointer escaping: `~` → `~0`, `/` → `~1`.
    fileprivate func replacingTildeAndSlash() -> String {
        var out = ""
        for character in self {
            switch character {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(character)
            }
        }
        return out
    }
}
