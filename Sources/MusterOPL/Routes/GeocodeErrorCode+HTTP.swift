import HTTPTypes
package import MusterRuntime

/// Both are 503: loading asks the app to retry shortly, a failed load says why.
extension GeocodeErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .loading: APIError(.serviceUnavailable, message, headers: [.retryAfter: "2"])
        case .unavailable: APIError(.serviceUnavailable, message)
        }
    }
}
