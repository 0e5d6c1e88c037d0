package import HTTPTypes
package import Hummingbird

/// Proves a request's credentials: the platform's keys and people know how (`PlatformAuthenticator`),
/// this layer only where it runs. Never throws: what does not hold is recorded as refused, for the
/// route's `AccessRule` to answer with if the route needs it.
/// A request's head is all it reads, so a WebSocket's upgrade is proved the same way.
package protocol RequestAuthenticator: Sendable {
    func caller(of headers: HTTPFields) async -> Caller
}

/// The one authentication step: before any route, whatever the request carries (an API key, a
/// person's bearer token, an installation's id and secret, a page's session cookie, nothing)
/// becomes the context's `Caller`. Handlers never read credentials; they read what this proved,
/// through the principal their route's rule admitted (`MusterRequestContext.principal`).
package struct AuthenticationMiddleware: RouterMiddleware {
    package typealias Context = MusterRequestContext
    let authenticator: any RequestAuthenticator

    package init(_ authenticator: any RequestAuthenticator) {
        self.authenticator = authenticator
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.caller = await authenticator.caller(of: request.headers)
        return try await next(request, context)
    }
}

/// A process that serves no platform (a test's app alone) proves nothing: every credential is absent.
struct NoCredentials: RequestAuthenticator {
    func caller(of headers: HTTPFields) async -> Caller { Caller() }
}
