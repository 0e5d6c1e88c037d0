package import AsyncHTTPClient
import Foundation
import MusterEvents
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1

/// Sends text messages through a Twilio-compatible Messages API: `POST <base>/2010-04-01/Accounts/
/// <account>/Messages.json`, form-encoded `To`, `From`, `Body`, HTTP basic auth with the account
/// and its token. The real provider in production; `muster-standins sms` in tests and the demo,
/// through this same code.
package struct SMSClient: Sendable {
    package let baseURL: String
    package let account: String
    let token: String
    package let from: String
    let http: HTTPClient

    package init(baseURL: String, account: String, token: String, from: String, http: HTTPClient = .shared) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.account = account
        self.token = token
        self.from = from
        self.http = http
    }

    package func send(to phone: String, body: String) async throws {
        var request = HTTPClientRequest(url: "\(baseURL)/2010-04-01/Accounts/\(Self.formEncode(account))/Messages.json")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Authorization", value: "Basic " + Data("\(account):\(token)".utf8).base64EncodedString())
        let form = [("To", phone), ("From", from), ("Body", body)].map { "\($0)=\(Self.formEncode($1))" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: form))
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(10))
        } catch {
            throw IdentityError(.providerUnavailable, "The text message could not be sent; try again")
        }
        _ = try? await response.body.collect(upTo: 64 * 1024)
        guard (200..<300).contains(response.status.code) else {
            throw IdentityError(.providerUnavailable, "The text message could not be sent (\(response.status.code)); try again")
        }
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
