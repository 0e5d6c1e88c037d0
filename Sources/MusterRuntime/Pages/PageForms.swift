import Crypto
import Foundation
package import Hummingbird
import MusterJSON

/// Forms' tokens against cross-site requests. A signed-in page's forms carry
/// `csrf` = SHA-256 of the page session's credential (which only the visitor's browser holds: the
/// cookie is HttpOnly), so a form another site makes cannot carry it. A sign-in form, before any
/// session, carries the value of the `muster_form` cookie the form's page set (a double submit:
/// another site can neither read nor set that cookie). `Routes` checks every `POST` a page rule
/// or a form rule declares before the handler runs, and answers 403 without the right token.
package enum PageForms {
    /// The field every form carries.
    package static let field = "csrf"
    /// The sign-in forms' cookie: site-wide, so every group's sign-in page shares it.
    package static let signInCookie = "muster_form"

    /// Which token a route's `POST` must carry.
    package enum Check: Sendable, Hashable {
        /// None (an API route, or a page read by a script with `X-API-Key`).
        case none
        /// The page session's, when the request has a page session (a form of a signed-in page;
        /// without a session the route has nothing to act for and shows its sign-in form).
        case session
        /// The sign-in cookie's (a sign-in form).
        case signIn
    }

    /// The token of the page session `credential`.
    package static func token(session credential: String) -> String {
        Hex.lowercase(SHA256.hash(data: Array("muster-csrf\n\(credential)".utf8)))
    }

    /// The token a page rendered for `request` puts in its forms: a signed-in visitor's session's;
    /// anyone else's sign-in token, with the `Set-Cookie` that gives it when they have none yet.
    /// (A visitor whose session ended still sends its cookie: their sign-in form needs the sign-in
    /// token, not the dead session's.)
    package static func token(for request: Request, signedIn: Bool) -> (token: String, setCookie: String?) {
        if signedIn, let credential = PageSession.credential(in: request.headers) { return (token(session: credential), nil) }
        if let existing = cookie(signInCookie, in: request.headers), existing.utf8.count == 64, existing.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) {
            return (existing, nil)
        }
        let fresh = Hex.lowercase(SecureRandom.bytes(32))
        return (fresh, "\(signInCookie)=\(fresh); Path=/; HttpOnly; SameSite=Strict; Max-Age=86400")
    }

    /// A page form's fields (`application/x-www-form-urlencoded`, at most `limit` bytes). A body
    /// that does not decode throws the decoder's error, which the error middleware answers 400
    /// naming the field.
    package static func decode<Form: Decodable>(_ form: Form.Type, from request: Request, limit: Int = 64 * 1024) async throws -> Form {
        let body = try await request.body.collect(upTo: limit)
        return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
    }

    struct Token: Decodable { var csrf: String? }

    /// Refuses `request` (403) unless its form carries the token `check` asks for. Reads the
    /// body (at most `limit` bytes) and leaves it collected, so the handler decodes it again.
    package static func verify(_ request: inout Request, _ check: Check, limit: Int = 256 * 1024) async throws {
        let expected: String
        switch check {
        case .none: return
        case .session:
            guard let credential = PageSession.credential(in: request.headers) else { return }
            expected = token(session: credential)
        case .signIn:
            guard let cookie = cookie(signInCookie, in: request.headers) else { throw refused }
            expected = cookie
        }
        let body = try await request.collectBody(upTo: limit)
        let sent = (try? URLEncodedFormDecoder().decode(Token.self, from: String(buffer: body)))?.csrf
        guard let sent, equalInConstantTime(sent, expected) else { throw refused }
    }

    static let refused = APIError(.forbidden, "this form's token is missing or stale: reload the page and send the form again")

    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// A cookie's value in a request's `Cookie` headers, if present and not empty.
    package static func cookie(_ name: String, in headers: HTTPFields) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let pair = pair.drop { $0 == " " }
                guard pair.hasPrefix(name + "=") else { continue }
                let value = pair.dropFirst(name.count + 1)
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }
}
