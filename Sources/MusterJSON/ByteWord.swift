/// Eight bytes at a time: masks that are nonzero when some byte of a word matches (the classic
/// bit tricks; exact about whether any byte matches, so a zero mask lets a scan skip the word).
/// The scanner, the encoder and the control-character pre-check OR them together per word.
package enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `pointer`, whatever its alignment.
    @inline(__always)
    package static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
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
}
