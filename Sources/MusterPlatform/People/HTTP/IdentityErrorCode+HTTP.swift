import HTTPTypes
package import MusterRuntime

/// 400 and 410 are what the app's code screen tells apart (wrong code, expired code); 429 is its
/// too-many-codes message. A bad ID token is a 400 with a message, not a 401 (the app would
/// treat it as a lost session).
extension IdentityErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidToken: APIError(.badRequest, message)
        case .notConfigured: APIError(.serviceUnavailable, message)
        case .providerUnavailable: APIError(.serviceUnavailable, message, headers: [.retryAfter: "5"])
        case .conflict, .cannotUnlink: APIError(.conflict, message)
        case .notFound: APIError(.notFound, message)
        case .invalidField: APIError(.unprocessableContent, message)
        case .tooManyCodes(let seconds): APIError(.tooManyRequests, message, headers: [.retryAfter: String(seconds)])
        case .wrongCode: APIError(.badRequest, message)
        case .codeExpired: APIError(.gone, message)
        }
    }
}
