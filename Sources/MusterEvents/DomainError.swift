/// An error a domain module throws: a code its callers can switch on and a message for people.
/// Each module names its own (`typealias ModerationError = DomainError<ModerationErrorCode>`);
/// the HTTP answer of each code lives beside that module's routes.
package struct DomainError<Code: Sendable & Hashable>: Error, Sendable, Hashable, CustomStringConvertible {
    package let code: Code
    package let message: String
    package var description: String { message }

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
