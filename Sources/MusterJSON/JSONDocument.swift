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

    /// Whether each key of the object at `object` sorts strictly after the one before it, as bytes
    /// (false as soon as one is escaped: its bytes are not its key's).
    func keysStrictlyRise(object: Int) -> Bool {
        var (previous, key) = (-1, object + 1)
        for _ in 0..<Int(tokens[object].count) {
            if tokens[key].flag { return false }
            if previous >= 0, ByteWord.compare(raw(previous), raw(key)) >= 0 { return false }
            previous = key
            key = next(after: key + 1)
        }
        return true
    }

    /// Whether the key at `index` is `name` (UTF-8).
    @inline(__always)
    func key(_ index: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tokens[index]
        if token.flag { return unescapedBytes(at: index).elementsEqual(name) }
        guard Int(token.length) == name.count else { return false }
        guard let stored = bytes.baseAddress.map({ $0 + Int(token.start) }), let wanted = name.baseAddress else { return name.isEmpty }
        // Eight bytes a compare, then the rest one by one (the scanner keeps every token inside `bytes`).
        var offset = 0
        while offset + 8 <= name.count {
            guard ByteWord.load(stored + offset) == ByteWord.load(wanted + offset) else { return false }
            offset += 8
        }
        while offset < name.count {
            guard stored[offset] == wanted[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The index of the value under the key spelled `name` (UTF-8) in the object at `object`:
    /// a walk over its members comparing bytes in place (objects in events are small). The walk
    /// starts after the member `cursor` found last and wraps around: readers mostly ask for keys
    /// in the order they are stored, and then each lookup compares one key. In an object whose
    /// keys rise, a name that falls between the key found last and the next one is absent at once.
    func value(forKey name: UnsafeBufferPointer<UInt8>, inObject object: Int, cursor: inout MemberCursor) -> Int? {
        let count = Int(tokens[object].count)
        if cursor.object != object { cursor = MemberCursor(object: object, key: object + 1) }
        // Most often the next member is the one asked for: one compare.
        if cursor.position < count, key(cursor.key, equals: name) {
            let at = cursor.key
            cursor = MemberCursor(object: object, key: next(after: at + 1), position: cursor.position + 1, previous: at)
            return at + 1
        }
        if tokens[object].flag {
            let next = cursor.position < count ? compare(cursor.key, name) : 1
            if next > 0, cursor.previous < 0 || compare(cursor.previous, name) < 0 { return nil }
        }
        var (at, position) = cursor.position < count ? (cursor.key, cursor.position) : (object + 1, 0)
        for _ in 0..<count {
            let following = next(after: at + 1)
            if key(at, equals: name) {
                cursor = MemberCursor(object: object, key: following, position: position + 1, previous: at)
                return at + 1
            }
            (at, position) = position + 1 < count ? (following, position + 1) : (object + 1, 0)
        }
        return nil
    }

    func value(forKey name: String, inObject object: Int, cursor: inout MemberCursor) -> Int? {
        var name = name
        return name.withUTF8 { value(forKey: $0, inObject: object, cursor: &cursor) }
    }

    /// How the key at `index` sorts against `name`, as bytes: negative, zero or positive (its raw
    /// bytes: asked only in an object whose keys rise, where none is escaped).
    private func compare(_ index: Int, _ name: UnsafeBufferPointer<UInt8>) -> Int {
        ByteWord.compare(raw(index), name)
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

/// One `MemberCursor` for each depth of nesting, for one decode call (on its stack; the decoders
/// borrow them): a nested object read without a decoder object of its own (`JSONFields`) still
/// has a cursor, and no decoder carries one. Objects at the same depth share theirs; each names
/// its object, so one that moved to another object's members starts that object afresh. Depths
/// past the last share the last.
struct MemberCursors {
    static let depths = 8
    let base: UnsafeMutablePointer<MemberCursor>

    @inline(__always)
    func at(_ depth: Int) -> UnsafeMutablePointer<MemberCursor> {
        base + min(depth, Self.depths - 1)
    }
}

/// Where the next key lookup in an object starts: the key token after the member found last, its
/// position among the object's members, and the key found last.
struct MemberCursor {
    var object = -1
    var key = 0
    var position = 0
    /// The key token found last (before `key`), or -1 at the start.
    var previous = -1
}
