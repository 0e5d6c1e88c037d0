/// Reads a request head's bytes as they arrive, without parsing it, for the limits the decoder
/// behind it cannot answer: where the head ends, how many bytes and lines it took. Pure (no I/O),
/// so it is tested and fuzzed on bytes alone. Lines end with LF (a CR before it is not counted);
/// the head ends at the first empty line after the request line.
package struct RequestHeadScanner: Sendable, Equatable {
    /// Header fields a head may carry (431 past it).
    package static let maxFields = 100
    /// Bytes a head may take, request line and blank line included (431 past it).
    package static let maxBytes = 16 * 1024

    package enum Outcome: Sendable, Equatable {
        /// Not ended yet, and within the limits.
        case more
        /// The head ended after `consumed` bytes of this read.
        case complete(consumed: Int)
        /// Past a limit: too many fields, or too many bytes.
        case tooLarge
    }

    var bytes = 0
    var lines = 0
    var lineLength = 0

    package init() {}

    package mutating func scan(_ input: UnsafeRawBufferPointer) -> Outcome {
        for (index, byte) in input.enumerated() {
            bytes += 1
            if bytes > Self.maxBytes { return .tooLarge }
            switch byte {
            case UInt8(ascii: "\n"):
                if lineLength == 0, lines > 0 { return .complete(consumed: index + 1) }
                lines += 1
                lineLength = 0
                // The request line and up to `maxFields` fields, then the blank line.
                if lines > Self.maxFields + 1 { return .tooLarge }
            case UInt8(ascii: "\r"):
                break
            default:
                lineLength += 1
            }
        }
        return .more
    }
}
