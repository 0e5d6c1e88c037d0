import HTTPTypes
public import MusterRuntime

extension ModerationErrorCode: HTTPMappedCode {
    public func apiError(message: String) -> APIError {
        switch self {
        case .notFound: APIError(.notFound, message)
        case .invalid: APIError(.unprocessableContent, message)
        case .wrongState, .changedMeanwhile: APIError(.conflict, message)
        }
    }
}
