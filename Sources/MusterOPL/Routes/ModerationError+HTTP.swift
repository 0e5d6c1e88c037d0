import HTTPTypes
import MusterRuntime

extension ModerationError: HTTPMappedError {
    public var apiError: APIError {
        switch code {
        case .notFound: APIError(.notFound, message)
        case .invalid: APIError(.unprocessableContent, message)
        case .wrongState, .changedMeanwhile: APIError(.conflict, message)
        }
    }
}
