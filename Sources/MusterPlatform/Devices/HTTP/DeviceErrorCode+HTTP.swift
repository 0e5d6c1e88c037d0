import HTTPTypes
package import MusterRuntime

/// 422 names the field; an unknown device (or one of another app or person) is 404.
extension DeviceErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidField: APIError(.unprocessableContent, message)
        case .unknownDevice: APIError(.notFound, message)
        }
    }
}
