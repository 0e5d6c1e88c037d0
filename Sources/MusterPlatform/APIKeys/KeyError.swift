/// Why a presented key opens nothing: a code a caller can switch on, and a message for people.
public struct KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No key was sent.
        case missing
        /// Not a key's shape, not a key we know, or revoked.
        case refused
        /// The key is fine but lacks the scope a route asks for.
        case lacksScope
        /// The keys fold is still catching up, so an unknown key may yet be known.
        case loading
    }

    public let code: Code
    public let message: String
    public var description: String { message }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
