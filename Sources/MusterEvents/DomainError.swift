/// An error a domain module throws: a code its callers can switch on and a message for people.
/// Each module names its own (`typealias ModerationError = DomainError<ModerationErrorCode>`);
/// the HTTP answer of each code lives beside that module's routes.
public struct DomainError<Code: Sendable & Hashable>: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let message: String
    public var description: String { message }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
