/// Encodes any `Encodable` straight into JSON bytes: values are written as they come, and an
/// object whose keys came out of order is put in order when it closes, so the output is
/// deterministic. Whole numbers are written digit by digit, floating point in its shortest exact
/// form, strings as UTF-8 with only `"`, `\` and control characters escaped.
package struct JSONBytesEncoder: Sendable {
    /// Every object's keys in byte order (the log stores events this way).
    package var sortedKeys = true
    /// Writes `/` as `\/` (Foundation's default; nothing needs it).
    package var escapesSlashes = false

    package init() {}

    package func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        try withEncoded(value) { $0.out.array }
    }

    /// Encodes `value` and hands the finished output to `result` (which copies it out once).
    func withEncoded<T: Encodable, R>(_ value: T, _ result: (EncodingState) -> R) throws -> R {
        if let object = value as? any JSONObjectEncodable { return try withObject(object.encodeMembers, result) }
        let state = EncodingState(sortedKeys: sortedKeys, escapesSlashes: escapesSlashes)
        try state.encodeValue(value, parent: nil, key: nil)
        return result(state)
    }
}

/// A container written to after its parent moved on (a hand-written `Encodable` that interleaves
/// containers): the container answers with an `EncodingError` naming its path.
struct StaleContainer: Error {
    func encodingError(_ codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(0, .init(codingPath: codingPath, debugDescription: "a container was written after its parent moved on"))
    }
}

/// The output and the containers still open in it, innermost last. A container writes only while
/// it is the innermost: writing to an outer one first closes those opened after it.
final class EncodingState {
    struct Frame {
        let id: Int
        let isObject: Bool
        /// Where its `{` or `[` is in `out`.
        let start: Int
        /// Where its keys begin in `keys`.
        let keyBase: Int
        var count = 0
        var inOrder = true
    }

    /// An object's entry: `"key":value` starts at `start`, the key ends (after its quote) at `keyEnd`.
    struct Key {
        let start: Int
        let keyEnd: Int
    }

    var out = OutputBytes(capacity: 512)
    private var frames: [Frame] = []
    private var keys: [Key] = []
    private var nextID = 0
    /// A key or an array slot is written and its value is not yet.
    private var valueExpected = true
    let sortedKeys: Bool
    let escapesSlashes: Bool

    init(sortedKeys: Bool, escapesSlashes: Bool) {
        self.sortedKeys = sortedKeys
        self.escapesSlashes = escapesSlashes
    }

    // MARK: Containers

    func open(object: Bool) -> Int {
        valueExpected = false
        nextID += 1
        frames.append(Frame(id: nextID, isObject: object, start: out.count, keyBase: keys.count))
        out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return nextID
    }

    func closeAll() {
        while !frames.isEmpty { close() }
    }

    /// Closes container `id` and whatever was opened after it (nothing when it is closed already).
    func close(_ id: Int) {
        guard let depth = frames.lastIndex(where: { $0.id == id }) else { return }
        while frames.count > depth { close() }
    }

    private func close() {
        if valueExpected { writeEmptyObject() }
        guard let frame = frames.popLast() else { return }
        if frame.isObject, sortedKeys, !frame.inOrder { putInOrder(frame) }
        keys.removeLast(keys.count - frame.keyBase)
        out.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// Closes what was opened after container `id`; answers its depth.
    private func prepare(_ id: Int) throws(StaleContainer) -> Int {
        guard let depth = frames.lastIndex(where: { $0.id == id }) else { throw StaleContainer() }
        while frames.count > depth + 1 { close() }
        if valueExpected { writeEmptyObject() }
        return depth
    }

    /// Starts `"key":` in object `id`.
    func beginEntry(_ id: Int, key: String) throws(StaleContainer) {
        let depth = try prepare(id)
        if frames[depth].count > 0 { out.append(UInt8(ascii: ",")) }
        let start = out.count
        writeString(key)
        let entry = Key(start: start, keyEnd: out.count)
        if sortedKeys {
            if frames[depth].inOrder, frames[depth].count > 0, let last = keys.last, !precedes(last, entry) {
                frames[depth].inOrder = false
            }
            keys.append(entry)
        }
        out.append(UInt8(ascii: ":"))
        frames[depth].count += 1
        valueExpected = true
    }

    /// Starts the next element of array `id`.
    func beginElement(_ id: Int) throws(StaleContainer) -> Int {
        let depth = try prepare(id)
        if frames[depth].count > 0 { out.append(UInt8(ascii: ",")) }
        frames[depth].count += 1
        valueExpected = true
        return frames[depth].count - 1
    }

    func count(of id: Int) -> Int { frames.last { $0.id == id }?.count ?? 0 }

    /// Encodes `value` into the slot just begun (or the top level), closing whatever it opens.
    func encodeValue<T: Encodable>(_ value: T, parent: ValueEncoder?, key: (any CodingKey)?) throws {
        // The common leaves without an encoder of their own (comparing types first keeps the casts rare).
        if T.self == String.self, let string = value as? String { return writeStringValue(string) }
        if T.self == Int.self, let int = value as? Int { return writeInteger(int) }
        if T.self == Bool.self, let bool = value as? Bool { return writeBool(bool) }
        if T.self == Double.self, let double = value as? Double {
            return try writeFloat(double, (parent?.codingPath ?? []) + [key].compactMap { $0 })
        }
        let depth = frames.count
        try value.encode(to: ValueEncoder(state: self, parent: parent, key: key))
        while frames.count > depth { close() }
        if valueExpected { writeEmptyObject() }
    }

    // MARK: Values

    func writeNull() {
        out.append("null")
        valueExpected = false
    }

    func writeBool(_ value: Bool) {
        if value {
            out.append("true")
        } else {
            out.append("false")
        }
        valueExpected = false
    }

    func writeInteger<T: FixedWidthInteger>(_ value: T) {
        JSONNumbers.withDigits(value) { out.append(contentsOf: $0) }
        valueExpected = false
    }

    func writeFloat<T: BinaryFloatingPoint & CustomStringConvertible>(_ value: T, _ codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard let text = JSONNumbers.text(value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath(), debugDescription: "\(value) is not a JSON number"))
        }
        out.append(contentsOf: text.utf8)
        valueExpected = false
    }

    func writeStringValue(_ string: String) {
        writeString(string)
        valueExpected = false
    }

    private func writeEmptyObject() {
        out.append(UInt8(ascii: "{"), UInt8(ascii: "}"))
        valueExpected = false
    }

    private func writeString(_ string: String) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            var (run, index) = (0, 0)
            while index < utf8.count {
                // Eight bytes at a time while none of them needs escaping (most strings: all of them).
                if index + 8 <= utf8.count, !mayNeedEscape(ByteWord.load(base + index)) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapesSlashes && byte == UInt8(ascii: "/")) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                    escape(byte)
                    run = index + 1
                }
                index += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any of eight bytes is below 0x20, `"`, `\\` (or `/` when escaped); a false alarm
    /// only costs a byte-by-byte look.
    @inline(__always)
    private func mayNeedEscape(_ word: UInt64) -> Bool {
        let slash = escapesSlashes ? ByteWord.equal(word, UInt8(ascii: "/")) : 0
        return ByteWord.below(word, 0x20) | ByteWord.equal(word, UInt8(ascii: "\"")) | ByteWord.equal(word, UInt8(ascii: "\\")) | slash != 0
    }

    private func escape(_ byte: UInt8) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }

    // MARK: Key order

    /// Whether key `a` sorts before key `b` (their bytes as written).
    private static func precedes(_ a: Key, _ b: Key, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let (aStart, aEnd, bStart, bEnd) = (a.start + 1, a.keyEnd - 1, b.start + 1, b.keyEnd - 1)
        var (i, j) = (aStart, bStart)
        while i < aEnd, j < bEnd {
            if bytes[i] != bytes[j] { return bytes[i] < bytes[j] }
            i += 1
            j += 1
        }
        return i == aEnd && j < bEnd
    }

    private func precedes(_ a: Key, _ b: Key) -> Bool {
        out.withBytes { Self.precedes(a, b, in: $0) }
    }

    /// Rewrites the entries of `frame` (still open, without its `}`) in key order.
    private func putInOrder(_ frame: Frame) {
        let ordered = out.withBytes { bytes in
            keys.withUnsafeBufferPointer { keys in
                // Each entry runs to the comma before the next one, the last to the end.
                var order = Array(frame.keyBase..<keys.count)
                order.sort { Self.precedes(keys[$0], keys[$1], in: bytes) }
                var ordered: [UInt8] = []
                ordered.reserveCapacity(bytes.count - frame.start)
                for (position, entry) in order.enumerated() {
                    if position > 0 { ordered.append(UInt8(ascii: ",")) }
                    let end = entry + 1 < keys.count ? keys[entry + 1].start - 1 : bytes.count
                    ordered.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[keys[entry].start..<end]))
                }
                return ordered
            }
        }
        out.replaceTail(from: frame.start + 1, with: ordered)
    }
}
