package import MusterEvents

/// Why a presented key opens nothing.
package typealias KeyError = DomainError<KeyErrorCode>

package enum KeyErrorCode: String, Sendable, Hashable {
    /// No key was sent.
    case missing
    /// Not a key's shape, not a key we know, or revoked.
    case refused
    /// The key is another app's: every key is bound to one app.
    case otherApp
    /// The key is fine but lacks the scope a route asks for.
    case lacksScope
    /// The keys fold is still catching up, so an unknown key may yet be known.
    case loading
}
