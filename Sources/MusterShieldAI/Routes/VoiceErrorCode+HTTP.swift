import HTTPTypes
package import MusterRuntime

/// 422 names the broken rule (`X-Muster-Rule` and the message), 413 for a file past 60 seconds'
/// worth of bytes, 415 for a body that is not declared as WAV.
extension VoiceErrorCode: HTTPMappedCode {
    package func apiError(message: String) -> APIError {
        switch self {
        case .invalidAudio(let rule): APIError(.unprocessableContent, message, headers: [.musterRule: rule])
        case .tooLarge: APIError(.contentTooLarge, message)
        case .unsupportedType: APIError(.unsupportedMediaType, message)
        case .unknownEnrollment: APIError(.notFound, message)
        case .unknownDevice: APIError(.unprocessableContent, message)
        }
    }
}

extension HTTPField.Name {
    // The unwrap cannot fail: a literal token (letters, digits, -) is a valid field name.
    /// Which rule an upload broke, for apps that show their own text.
    static let musterRule = HTTPField.Name("X-Muster-Rule")!
}
