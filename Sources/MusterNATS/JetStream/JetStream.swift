import Foundation

/// JetStream over a `NATSConnection`, spoken as the plain JetStream JSON API (`$JS.API.…`) and
/// headers. That keeps one code path for everything, including what is newer than libnats's own
/// JetStream API (multi-filter consumers, the wildcard expected-sequence header).
package struct JetStream: Sendable {
    package let connection: NATSConnection
    package let apiTimeout: Duration

    package init(_ connection: NATSConnection, apiTimeout: Duration = .seconds(5)) {
        self.connection = connection
        self.apiTimeout = apiTimeout
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// The `error` object of a JetStream API answer.
    struct APIError: Decodable, Sendable {
        var code: Int
        var errCode: Int?
        var description: String?
    }

    struct ErrorEnvelope: Decodable { var error: APIError? }

    /// Decodes a JetStream answer, turning its `error` object into a `NATSError`.
    static func decode<Response: Decodable>(_ type: Response.Type, from message: NATSMessage, context: String) throws -> Response {
        if let status = message.status, status >= 400 {
            throw NATSError(.jetStreamAPI, "\(context): \(status) \(message.statusDescription ?? "")")
        }
        if let envelope = try? decoder.decode(ErrorEnvelope.self, from: message.payload), let error = envelope.error {
            let code: NATSError.Code = error.errCode == 10071 ? .wrongLastSequence
                : (error.code == 404 ? .notFound : .jetStreamAPI)
            throw NATSError(code, "\(context): \(error.description ?? "error \(error.code)")", apiErrorCode: error.errCode)
        }
        do {
            return try decoder.decode(Response.self, from: message.payload)
        } catch {
            throw NATSError(.badReply, "\(context): unreadable answer: \(String(decoding: message.payload.prefix(200), as: UTF8.self))")
        }
    }

    /// One JetStream API call.
    func call<Response: Decodable>(_ subject: String, _ request: some Encodable, as type: Response.Type) async throws -> Response {
        let payload = try Self.encoder.encode(request)
        let reply: NATSMessage
        do {
            reply = try await connection.request("$JS.API.\(subject)", payload: payload, timeout: apiTimeout)
        } catch let error as NATSError where error.code == .noResponders {
            throw NATSError(.jetStreamAPI, "JetStream is not enabled on this server (no responders on $JS.API.\(subject))")
        }
        return try Self.decode(type, from: reply, context: subject)
    }

    struct Empty: Codable {}
}
