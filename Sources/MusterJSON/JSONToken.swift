/// One value of a scanned document, in document order (a "tape"): a container is followed by its
/// contents, an object's as key, value, key, value.
struct JSONToken: Sendable {
    enum Kind: UInt8, Sendable {
        case object, array, string, number, `true`, `false`, null

        /// As an error message says it.
        var name: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .true, .false: "a boolean"
            case .null: "null"
            }
        }
    }

    var kind: Kind
    /// A string with a backslash in it (must be unescaped); a number with a fraction or exponent;
    /// an object whose keys rise strictly as bytes, none escaped (as Muster writes them).
    var flag: Bool
    /// A string's first byte after the quote; a number's first byte; a container's opening byte.
    var start: UInt32
    /// A string's or number's byte length; for a container, how many tokens it holds (all levels),
    /// so the next sibling is at `index + 1 + length`.
    var length: UInt32
    /// A container's element count (an object's pairs).
    var count: UInt32
}
