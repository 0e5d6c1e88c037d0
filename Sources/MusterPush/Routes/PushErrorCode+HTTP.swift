import HTTPTypes
public import MusterRuntime

extension PushErrorCode: HTTPMappedCode {
    public func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .unknownPush: APIError(.notFound, message)
        }
    }
}
