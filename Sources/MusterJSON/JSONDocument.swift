/// A scanned document as the decoder reads it: the bytes and their tokens, both borrowed for one
/// decode call (pointers, so reading them costs no reference counting).
struct JSONDocument {
    let bytes: UnsafeBufferPointer<UInt8>
    let tokens: UnsafeBufferPointer<JSONToken>

    /// The index of the value after the one at `index` (past all of a container's contents).
    @inline(__always)
    func next(after index: Int) -> Int {
        let token = tokens[index]
        return token.kind == .object || token.kind == .array ? index + 1 + Int(token.length) : index + 1
    }

    /// A string's or number's bytes, as they stand in the input.
    @inline(__always)
    func raw(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let token = tokens[index]
        return UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.start + token.length)])
    }

    /// The string at `index` (a key or a value), unescaped.
    func string(at index: Int) -> String {
        guard tokens[index].flag else { return String(decoding: raw(index), as: UTF8.self) }
        return String(decoding: unescapedBytes(at: index), as: UTF8.self)
    }

    /// Whether two keys name the same thing once unescaped.
    func sameKey(_ a: Int, _ b: Int) -> Bool {
        if !tokens[a].flag, !tokens[b].flag {
            guard tokens[a].length == tokens[b].length else { return false }
            return key(a, equals: raw(b))
        }
        return unescapedBytes(at: a) == unescapedBytes(at: b)
    }

    /// Whether the key at `index` is `name` (UTF-8).
    @inline(__always)
    func key(_ index: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tokens[index]
        if token.flag { return unescapedBytes(at: index).elementsEqual(name) }
        guard Int(token.length) == name.count else { return false }
        let start = Int(token.start)
        for offset in 0..<name.count where bytes[start + offset] != name[offset] { return false }
        return true
    }

    /// The index of the value under the key spelled `name` (UTF-8) in the object at `object`:
    /// a walk over its members comparing bytes in place (objects in events are small). The walk
    /// starts after the member `cursor` found last and wraps around: readers mostly ask for keys
    /// in the order they are stored, and then each lookup compares one key.
    func value(forKey name: String, inObject object: Int, cursor: inout MemberCursor) -> Int? {
        let count = Int(tokens[object].count)
        var name = name
        return name.withUTF8 { utf8 in
            var (at, position) = cursor.object == object && cursor.position < count ? (cursor.key, cursor.position) : (object + 1, 0)
            for _ in 0..<count {
                let following = next(after: at + 1)
                if key(at, equals: utf8) {
                    cursor = MemberCursor(object: object, key: following, position: position + 1)
                    return at + 1
                }
                (at, position) = position + 1 < count ? (following, position + 1) : (object + 1, 0)
            }
            return nil
        }
    }

    /// A string's bytes with its escapes resolved (the scanner has checked every escape).
    func unescapedBytes(at index: Int) -> [UInt8] {
        let source = raw(index)
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        var i = 0
        while i < source.count {
            let byte = source[i]
            guard byte == UInt8(ascii: "\\"), i + 1 < source.count else {
                out.append(byte)
                i += 1
                continue
            }
            switch source[i + 1] {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hexUnit(source, i + 2))
                i += 6
                if (0xD800...0xDBFF).contains(scalar), i + 6 <= source.count {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(hexUnit(source, i + 2)) - 0xDC00)
                    i += 6
                }
                appendUTF8(scalar, to: &out)
                continue
            default: out.append(source[i + 1]) // \" \\ \/
            }
            i += 2
        }
        return out
    }

    private func hexUnit(_ source: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16 {
        var unit: UInt16 = 0
        for offset in 0..<4 where at + offset < source.count {
            unit = unit << 4 | UInt16(JSONScanner.hexValue(source[at + offset]) ?? 0)
        }
        return unit
    }

    private func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        guard let value = Unicode.Scalar(scalar) else {
            out.append(contentsOf: [0xEF, 0xBF, 0xBD]) // unreachable: the scanner refuses lone surrogates
            return
        }
        out.append(contentsOf: UTF8.encode(value).map(Array.init) ?? [])
    }
}

/// Where the next key lookup in an object starts: the key token after the member found last, and
/// its position among the object's members.
struct MemberCursor {
    var object = -1
    var key = 0
    var position = 0
}
