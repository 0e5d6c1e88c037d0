package import MusterEvents

/// Why an invitation could not be sent or accepted.
package typealias InvitationError = DomainError<InvitationErrorCode>

package enum InvitationErrorCode: Sendable, Hashable {
    /// The email or phone number is malformed, or both or neither were given.
    case invalidField(String)
    /// A pending invitation for that contact exists already, or the invitee is a member already.
    case conflict
    /// Too many invitations from this person in the last hour.
    case tooMany(retryAfter: Int)
    /// No pending invitation has that code (unknown, used, or expired): one answer for all three.
    case notFound
    /// Nothing here sends that kind of message (no mail or SMS provider configured).
    case notConfigured
    /// The provider could not be reached.
    case providerUnavailable
}
