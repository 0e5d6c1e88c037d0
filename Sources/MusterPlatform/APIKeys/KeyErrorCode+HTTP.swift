import HTTPTypes
package import MusterRuntime

/// 401 only when the key really is missing, refused or another app's (apps delete their key on a 401), 403 for a
/// missing scope, 503 with `Retry-After` while the keys are loading.
extension KeyErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .missing, .refused, .otherApp: APIError(.unauthorized, message)
        case .lacksScope: APIError(.forbidden, message)
        case .loading: APIError(.serviceUnavailable, message, headers: [.retryAfter: "2"])
        }
    }
}
