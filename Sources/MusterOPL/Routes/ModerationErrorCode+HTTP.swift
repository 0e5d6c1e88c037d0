import HTTPTypes
package import MusterRuntime

extension ModerationErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .notFound: APIError(.notFound, message)
        case .invalid: APIError(.unprocessableContent, message)
        case .wrongState, .changedMeanwhile: APIError(.conflict, message)
        }
    }
}
