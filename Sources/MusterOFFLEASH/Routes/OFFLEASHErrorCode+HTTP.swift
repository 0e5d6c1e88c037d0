import HTTPTypes
package import MusterRuntime

/// 422 names the field; 403 for a role that may not; 409 for a duplicate address, a slot taken
/// by someone else or a booking in the wrong state.
extension OFFLEASHErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .notFound: APIError(.notFound, message)
        case .forbidden: APIError(.forbidden, message)
        case .duplicate, .conflict: APIError(.conflict, message)
        case .declined: APIError(HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), message)
        case .providerUnavailable: APIError(.serviceUnavailable, message, headers: [.retryAfter: "5"])
        }
    }
}
