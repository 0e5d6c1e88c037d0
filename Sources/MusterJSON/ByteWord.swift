/// Eight bytes at a time: masks that are nonzero when some byte of a word matches (the classic
/// bit tricks; exact about whether any byte matches, so a zero mask lets a scan skip the word).
/// The scanner, the encoder and the control-character pre-check OR them together per word.
/// A flag can be a false alarm only in a byte above (more significant than) a true one, where a borrow
/// reached it: so in a word loaded little-endian the lowest flag is exactly the first byte that
/// matches, and OR-ed masks' lowest flag the first byte that matches any of them.
package enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `pointer`, whatever its alignment.
    @inline(__always)
    package static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
    }

    /// The eight bytes at `pointer` with the first in the lowest bits, on any platform: where the
    /// position of a match matters (`trailingZeroBitCount / 8` is its offset).
    @inline(__always)
    package static func loadLittleEndian(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Nonzero when a byte of `word` is `byte`.
    @inline(__always)
    package static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// Nonzero when a byte of `word` is below `bound` (at most 0x80).
    @inline(__always)
    package static func below(_ word: UInt64, _ bound: UInt8) -> UInt64 {
        (word &- ones &* UInt64(bound)) & ~word & highs
    }

    /// Nonzero when a byte of `word` is past ASCII.
    @inline(__always)
    package static func pastASCII(_ word: UInt64) -> UInt64 { word & highs }

    /// How `a` sorts against `b` as bytes (negative, zero or positive), eight bytes a compare.
    @inline(__always)
    package static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if let first = a.baseAddress, let second = b.baseAddress {
            var offset = 0
            while offset + 8 <= common {
                // Big-endian, so the first differing byte decides, as in the byte-by-byte order.
                let (x, y) = (UInt64(bigEndian: load(first + offset)), UInt64(bigEndian: load(second + offset)))
                if x != y { return x < y ? -1 : 1 }
                offset += 8
            }
            while offset < common {
                if first[offset] != second[offset] { return Int(first[offset]) - Int(second[offset]) }
                offset += 1
            }
        }
        return a.count - b.count
    }
}
