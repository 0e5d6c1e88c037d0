/// A JSON value as MusterJSON's decoder sees it, in one look: what a `Decodable` that takes any
/// JSON value (`JSONValue`) would otherwise learn by trying each type in turn, each failed try
/// building an error with its coding path (a profile of the field app's pushes put that at a third
/// of the server's time). Containers are named, not read: the caller decodes their contents.
package enum JSONScalar: Sendable, Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array, object

    /// The value `decoder` stands on when `decoder` is MusterJSON's own; nil for any other decoder.
    /// Numbers read as the typed decodes do: a whole number (`1.0` and `1e2` too) that fits in
    /// `Int64` is an integer, any other finite number a `Double`.
    package init?(_ decoder: any Decoder) throws {
        guard let tape = decoder as? TapeDecoder else { return nil }
        try self.init(tape, at: tape.index, key: nil)
    }

    /// The value at token `index` of `tape`'s document (`key` names it in an error).
    init(_ tape: TapeDecoder, at index: Int, key: (any CodingKey)?) throws {
        let token = tape.document.tokens[index]
        switch token.kind {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .string: self = .string(tape.document.string(at: index))
        case .array: self = .array
        case .object: self = .object
        case .number:
            if !token.flag, let integer = JSONNumbers.integer(Int64.self, tape.document.raw(index)) {
                self = .integer(integer)
                return
            }
            let double = try tape.floatingPoint(Double.self, at: index, key: key)
            if token.flag, let integer = Int64(exactly: double) { self = .integer(integer) } else { self = .number(double) }
        }
    }
}
