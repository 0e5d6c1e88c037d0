import HTTPTypes
package import MusterRuntime

/// The app shows any error's `message`; 429 says when to come back.
extension InvitationErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .conflict: APIError(.conflict, message)
        case .tooMany(let seconds): APIError(.tooManyRequests, message, headers: [.retryAfter: String(seconds)])
        case .notFound: APIError(.notFound, message)
        case .notConfigured: APIError(.serviceUnavailable, message)
        case .providerUnavailable: APIError(.serviceUnavailable, message, headers: [.retryAfter: "5"])
        }
    }
}
