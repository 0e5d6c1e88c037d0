public import Hummingbird

/// Answers of the server-rendered pages (moderation, dashboards): no caching, and a policy that
/// allows nothing but the page's own inline styles and forms posting back to it.
public enum HTMLResponse {
    public static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"

    public static func page(_ html: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// 303 See Other: the answer to a form post.
    public static func redirect(_ location: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }
}

/// A person's API key kept for a group of pages after they sign in: HttpOnly (no script reads
/// it), SameSite=Strict (no other site posts with it), scoped to the pages' path, for 8 hours.
public struct KeyCookie: Sendable {
    public let name: String
    public let path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    public func key(in request: Request) -> String? { request.cookies[name]?.value }

    /// `Set-Cookie` after a sign-in with `key`.
    public func signIn(_ key: String) -> HTTPFields { [.setCookie: "\(name)=\(key); Path=\(path); HttpOnly; SameSite=Strict; Max-Age=28800"] }

    /// `Set-Cookie` that forgets it.
    public var signOut: HTTPFields { [.setCookie: "\(name)=; Path=\(path); HttpOnly; SameSite=Strict; Max-Age=0"] }
}
