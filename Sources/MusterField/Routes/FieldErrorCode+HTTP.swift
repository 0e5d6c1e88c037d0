import HTTPTypes
package import MusterRuntime

extension FieldErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .forbidden: APIError(.forbidden, message)
        case .notFound: APIError(.notFound, message)
        case .notReady: APIError(.serviceUnavailable, message)
        case .tooLarge: APIError(.contentTooLarge, message)
        case .offsetMismatch(let held): APIError(.conflict, message, headers: [.uploadOffset: "\(held)", .uploadDraftInteropVersion: UploadRoutes.interopVersion])
        }
    }
}
