package import MusterEvents

/// Why an account operation was refused, in domain terms; `AccountErrorCode+HTTP` gives the answers.
package typealias AccountError = DomainError<AccountErrorCode>

package enum AccountErrorCode: Sendable, Hashable {
    /// A field breaks its rule; the field as the contract names it (`email`, `first_name`).
    case invalidField(String)
    /// The email is registered in this organisation already.
    case emailTaken
    case unknownOrganisation
    /// Wrong email or password, never saying which.
    case wrongCredentials
    /// Too many attempts for this account or address.
    case tooManyAttempts(retryAfter: Int)
    /// The password hashing pool is full.
    case busy
    /// Missing, malformed, expired or revoked token.
    case invalidToken
    /// The token names a session this process has not folded yet, and waiting did not help.
    case loading
    /// No such person (an operator's forget).
    case unknownPerson
    /// No such session of the caller's (404).
    case unknownSession
    /// A one-time code (password reset, email verification) that is wrong (400).
    case wrongCode
    /// No code waiting, or it expired, was used, or was tried five times wrongly (410).
    case codeExpired
    /// Too many codes asked for one address (429).
    case tooManyCodes(retryAfter: Int)
    /// The app asks for a verified email before sign-in (403).
    case unverifiedEmail
    /// The mail provider is not configured (503).
    case notConfigured
    /// A second factor is on already (409).
    case secondFactorOn
}
