package import MusterEvents

/// A domain error with one answer over HTTP. The domain type knows nothing of HTTP: its
/// conformance lives beside the module's routes, and `ErrorBodyMiddleware` turns any such error
/// into that answer.
package protocol HTTPMappedError: Error {
    var apiError: APIError { get }
}

/// A domain error code's answer over HTTP, declared beside the module's routes
/// (`ModerationErrorCode+HTTP.swift`); every `DomainError` of such a code is then an `HTTPMappedError`.
package protocol HTTPMappedCode: Sendable, Hashable {
    func apiError(message: String) -> APIError
}

extension DomainError: HTTPMappedError where Code: HTTPMappedCode {
    package var apiError: APIError { code.apiError(message: message) }
}
