import HTTPTypes
package import MusterRuntime

extension PushErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .unknownPush: APIError(.notFound, message)
        }
    }
}
