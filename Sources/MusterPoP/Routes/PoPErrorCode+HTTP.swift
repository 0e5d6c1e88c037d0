import HTTPTypes
package import MusterRuntime

extension PoPErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .notSignedIn: APIError(.unauthorized, message)
        case .forbidden: APIError(.forbidden, message)
        case .notFound: APIError(.notFound, message)
        case .linkedElsewhere: APIError(.conflict, message)
        case .notReady: APIError(.serviceUnavailable, message)
        }
    }
}
