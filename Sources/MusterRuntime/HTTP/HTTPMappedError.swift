/// A domain error with one answer over HTTP. The domain type knows nothing of HTTP: its
/// conformance lives beside the module's routes (`ModerationError+HTTP.swift`), and
/// `ErrorBodyMiddleware` turns any such error into that answer.
public protocol HTTPMappedError: Error {
    var apiError: APIError { get }
}
