import Foundation
package import HTTPTypes
package import HummingbirdTesting
import NIOCore

/// A visitor of the pages as a browser is one: it keeps the cookies the pages set (the page
/// session, the sign-in token) and sends each form with the token of the page it last opened,
/// as the page's hidden `csrf` field says. `post(…, token: false)` leaves the token out, as a
/// form another site made would.
package actor PageVisit {
    let client: any TestClientProtocol
    package private(set) var cookies: [String: String] = [:]
    /// The `csrf` value of the last page opened.
    package private(set) var token: String?

    package init(_ app: TestApp) {
        client = app.client
    }

    package var cookieHeader: HTTPFields {
        cookies.isEmpty ? [:] : [.cookie: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")]
    }

    @discardableResult
    package func get(_ uri: String) async throws -> TestResponse {
        let answer = try await client.execute(uri: uri, method: .get, headers: cookieHeader, body: nil)
        keep(answer)
        return answer
    }

    /// Posts `fields` (form-encoded) with the last page's token unless `token` is false.
    @discardableResult
    package func post(_ uri: String, _ fields: [(String, String)] = [], token withToken: Bool = true) async throws -> TestResponse {
        var headers = cookieHeader
        headers[.contentType] = "application/x-www-form-urlencoded"
        var all = fields
        if withToken, let token { all.append(("csrf", token)) }
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        let answer = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
        keep(answer)
        return answer
    }

    /// Forgets one cookie (a session that expired, a browser that never had it).
    package func drop(cookie name: String) { cookies[name] = nil }

    /// Sends a cookie from now on (one kept from another visit).
    package func set(cookie name: String, _ value: String) { cookies[name] = value }

    func keep(_ answer: TestResponse) {
        for header in answer.headers[values: .setCookie] {
            let pair = header.prefix { $0 != ";" }
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            cookies[name] = value.isEmpty || header.contains("Max-Age=0") ? nil : value
        }
        let text = String(buffer: answer.body)
        if let range = text.range(of: "name=\"csrf\" value=\"") {
            token = String(text[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
