package import MusterEvents

/// Why a moderation request cannot be carried out (a retry looks at `.changedMeanwhile`, never at the text).
package typealias ModerationError = DomainError<ModerationErrorCode>

package enum ModerationErrorCode: String, Sendable, Hashable {
    /// No action or snapshot with that id.
    case notFound
    /// The request is missing something or names something impossible.
    case invalid
    /// The action or snapshot is in a state that does not allow this decision.
    case wrongState
    /// Its newest event is not the one this decision was made on.
    case changedMeanwhile
}

extension DomainError where Code == ModerationErrorCode {
    static let changedMeanwhile = ModerationError(.changedMeanwhile, "it changed meanwhile; reload and decide again")
}
