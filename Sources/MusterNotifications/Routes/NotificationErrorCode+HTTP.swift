import HTTPTypes
package import MusterRuntime

extension NotificationErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .badLink: APIError(.notFound, message)
        }
    }
}
