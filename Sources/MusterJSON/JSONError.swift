/// Why bytes are not the JSON we take: a code to branch on, the byte offset, and a sentence.
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: Sendable, Equatable {
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

    package var code: Code
    /// Where in the input it was noticed.
    package var offset: Int
    package var message: String

    package init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    package var description: String { "\(message) at byte \(offset)" }
}

/// Bounds every parse keeps to, whatever the input.
package struct JSONLimits: Sendable {
    /// Objects and arrays inside each other.
    package var maxDepth = 128
    package var maxBytes = 64 * 1024 * 1024

    package init() {}
}
