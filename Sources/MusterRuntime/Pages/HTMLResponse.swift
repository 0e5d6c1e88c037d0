package import Hummingbird

/// Answers of the server-rendered pages: no caching, and a policy that allows no script.
package enum HTMLResponse {
    /// Nothing but the stylesheet and forms posting back here: no script at all, no frames (no
    /// clickjacking), no `<base>` to redirect relative links.
    package static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// A public page outside the shell (`HTMLPage.finish()`): its style is inline; still no script.
    package static let standalonePolicy = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// A page of the shell (`PageTemplates`), or with `standalone` a whole `HTMLPage` document.
    package static func page(_ html: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], standalone: Bool = false) -> Response {
        var headers = headers
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = standalone ? standalonePolicy : contentSecurityPolicy
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// 303 See Other: the answer to a form post.
    package static func redirect(_ location: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }
}

/// The one page session: after a group of pages' sign-in form, the visitor's API key or access
/// token is kept in the `muster_session` cookie, HttpOnly (no script reads it), SameSite=Strict (no
/// other site posts with it), scoped to the pages' path (so each group has its own), for 8 hours.
/// The authentication step proves it (`Caller.page`); a page's `AccessRule.page` admits it.
package struct PageSession: Sendable {
    package static let cookieName = "muster_session"
    package let path: String

    package init(path: String) {
        self.path = path
    }

    /// `Set-Cookie` after a sign-in with `credential` (a key or an access token).
    package func signIn(_ credential: String) -> HTTPFields {
        [.setCookie: "\(Self.cookieName)=\(credential); Path=\(path); HttpOnly; SameSite=Strict; Max-Age=28800"]
    }

    /// `Set-Cookie` that forgets it.
    package var signOut: HTTPFields { [.setCookie: "\(Self.cookieName)=; Path=\(path); HttpOnly; SameSite=Strict; Max-Age=0"] }

    /// The session cookie's value in a request's `Cookie` headers, if it has one that is not empty.
    package static func credential(in headers: HTTPFields) -> String? {
        PageForms.cookie(cookieName, in: headers)
    }
}
