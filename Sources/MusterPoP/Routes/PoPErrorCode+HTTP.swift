import HTTPTypes
public import MusterRuntime

extension PoPErrorCode: HTTPMappedCode {
    public func apiError(message: String) -> APIError {
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
