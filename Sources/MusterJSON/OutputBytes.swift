/// The encoder's output: a growable run of bytes it owns alone. Appending to an array kept in a
/// class paid a uniqueness check and a call on every byte written, the encoder's hottest work;
/// this appends with one capacity check. Every write stays below `capacity` (each append makes
/// room first), and the bytes leave as a copy (`array`, or `withBytes` into a `Data`).
struct OutputBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        (base, capacity) = (moved, grown)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        reserve(2)
        (base[count], base[count + 1]) = (first, second)
        count += 2
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// A literal's bytes (`null`, `true`, an escape).
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    mutating func append<S: Sequence<UInt8>>(contentsOf bytes: S) {
        for byte in bytes { append(byte) }
    }

    /// The bytes written so far, for the length of the call.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Replaces everything from `start` on with `bytes`.
    mutating func replaceTail(from start: Int, with bytes: [UInt8]) {
        count = min(max(start, 0), count)
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    var array: [UInt8] { withBytes { Array($0) } }
}
