/// Why a moderation request cannot be carried out: a code a caller can switch on (a retry looks
/// at `.changedMeanwhile`, never at the text) and a message for the moderator.
public struct ModerationError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No action or snapshot with that id.
        case notFound
        /// The request is missing something or names something impossible.
        case invalid
        /// The action or snapshot is in a state that does not allow this decision.
        case wrongState
        /// Its newest event is not the one this decision was made on.
        case changedMeanwhile
    }

    public let code: Code
    public let message: String
    public var description: String { message }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static let changedMeanwhile = ModerationError(.changedMeanwhile, "it changed meanwhile; reload and decide again")
}
