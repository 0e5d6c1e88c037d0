import HTTPTypes
package import MusterRuntime

extension DocumentErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .tooLarge: APIError(.contentTooLarge, message)
        case .unknownDocument: APIError(.notFound, message)
        }
    }
}
