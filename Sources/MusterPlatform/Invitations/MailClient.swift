package import AsyncHTTPClient
import Foundation
import MusterEvents
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1

/// Sends plain-text email through a SendGrid-compatible Mail Send API: `POST <base>/v3/mail/send`
/// with a bearer API key, answered 202. The real provider in production; `muster-standins sms`
/// (which answers like Twilio's two APIs, texts and mail) in tests and the demo, through this code.
package struct MailClient: Sendable {
    package let baseURL: String
    let key: String
    package let from: String
    let http: HTTPClient

    package init(baseURL: String, key: String, from: String, http: HTTPClient = .shared) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.key = key
        self.from = from
        self.http = http
    }

    struct Message: Encodable {
        struct Address: Encodable { var email: String }
        struct Personalization: Encodable { var to: [Address] }
        struct Content: Encodable { var type = "text/plain"; var value: String }
        var personalizations: [Personalization]
        var from: Address
        var subject: String
        var content: [Content]
        /// Extra headers (`List-Unsubscribe`), which SendGrid's API takes as an object.
        var headers: [String: String]?
    }

    package func send(to email: String, subject: String, body: String, headers: [String: String] = [:]) async throws {
        var request = HTTPClientRequest(url: "\(baseURL)/v3/mail/send")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        let message = Message(personalizations: [.init(to: [.init(email: email)])], from: .init(email: from), subject: subject,
                              content: [.init(value: body)], headers: headers.isEmpty ? nil : headers)
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(message)))
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(10))
        } catch {
            throw InvitationError(.providerUnavailable, "The email could not be sent; try again")
        }
        _ = try? await response.body.collect(upTo: 64 * 1024)
        guard (200..<300).contains(response.status.code) else {
            throw InvitationError(.providerUnavailable, "The email could not be sent (\(response.status.code)); try again")
        }
    }
}
