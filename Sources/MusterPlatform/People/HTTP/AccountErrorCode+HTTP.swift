import HTTPTypes
package import MusterRuntime

/// 401 only for a token that really is missing, invalid, expired or revoked: apps wipe their
/// token on any 401 (OFFLEASH shows "Session expired"), so a wrong password at sign-in is a 400,
/// not a 401. 422 names the field; 429 and 503 say when to come back.
extension AccountErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .unknownOrganisation: APIError(.notFound, message)
        case .emailTaken: APIError(.conflict, message)
        case .wrongCredentials: APIError(.badRequest, message)
        case .tooManyAttempts(let seconds): APIError(.tooManyRequests, message, headers: [.retryAfter: String(seconds)])
        case .busy: APIError(.serviceUnavailable, message, headers: [.retryAfter: "1"])
        case .invalidToken: APIError(.unauthorized, message)
        case .loading: APIError(.serviceUnavailable, message, headers: [.retryAfter: "1"])
        case .unknownPerson, .unknownSession: APIError(.notFound, message)
        case .wrongCode: APIError(.badRequest, message)
        case .codeExpired: APIError(.gone, message)
        case .tooManyCodes(let seconds): APIError(.tooManyRequests, message, headers: [.retryAfter: String(seconds)])
        case .unverifiedEmail: APIError(.forbidden, message)
        case .notConfigured: APIError(.serviceUnavailable, message)
        case .secondFactorOn: APIError(.conflict, message)
        }
    }
}
