/// Why bytes are not the JSON we take: a code to branch on, the byte offset, and a sentence.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// Not JSON: a stray byte, an unterminated string, a bad escape or number.
        case syntax
        /// A string's bytes are not UTF-8, or an escape names a lone surrogate.
        case invalidUTF8
        /// Nested deeper than `JSONLimits.maxDepth`.
        case tooDeep
        /// Longer than `JSONLimits.maxBytes`.
        case tooLarge
        /// One object names a key twice.
        case duplicateKey
    }

    public var code: Code
    /// Where in the input it was noticed.
    public var offset: Int
    public var message: String

    public init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(message) at byte \(offset)" }
}

/// Bounds every parse keeps to, whatever the input.
public struct JSONLimits: Sendable {
    /// Objects and arrays inside each other.
    public var maxDepth = 128
    public var maxBytes = 64 * 1024 * 1024

    public init() {}
}
