package import MusterEvents

/// Why a provider sign-in, a link or a phone code was refused.
package typealias IdentityError = DomainError<IdentityErrorCode>

package enum IdentityErrorCode: Sendable, Hashable {
    /// The ID token is forged, expired, for another app or from another issuer.
    case invalidToken
    /// The provider (or the SMS provider) is not configured here.
    case notConfigured
    /// The provider's keys (or the SMS provider) could not be reached.
    case providerUnavailable
    /// The account belongs to someone else, or the email to an account that must link it itself.
    case conflict
    /// The identity cannot be unlinked (the primary one, or the last).
    case cannotUnlink
    case notFound
    /// The phone number or code is malformed.
    case invalidField(String)
    /// Too many codes asked for this number.
    case tooManyCodes(retryAfter: Int)
    /// The code is wrong.
    case wrongCode
    /// No code is waiting, it expired, or too many wrong tries locked it.
    case codeExpired
}
