public import HTTPTypes
public import Hummingbird
import MusterEvents
import MusterLog
public import MusterRuntime

/// Authenticates `X-API-Key` against the keys projection, checks that the key is the route's
/// app's, and checks a scope.
///
/// 401 for a missing, malformed, unknown or revoked key and for another app's key; 403 for a
/// missing scope; 503 (with `Retry-After`) for an unknown key while the projection is still
/// catching up, so an app that deletes its key on 401 never does so because the server had just
/// started.
public struct APIKeyMiddleware: RouterMiddleware {
    public typealias Context = MusterRequestContext
    let directory: APIKeyDirectory
    /// The app whose routes these are; nil for a shared service (the collector, pushes), where
    /// any app's key is welcome and what it touches is its own app's.
    let app: String?
    let scope: String?

    public init(keys: APIKeyDirectory, app: String?, scope: String?) {
        self.directory = keys
        self.app = app
        self.scope = scope
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let client = try await directory.authenticate(request.headers[.apiKey], app: app, scope: scope)
        context.client = client
        return try await next(request, context)
    }
}

extension APIKeyDirectory {
    /// The client of a presented key, if it is `app`'s (any app's when nil) and carries `scope`.
    public func authenticate(_ presented: String?, app: String?, scope: String?) async throws -> AuthenticatedClient {
        let client = try await authenticate(presented)
        if let app, client.app != app { throw KeyError(.otherApp, "this API key is not for \(app)") }
        if let scope, !client.scopes.contains(scope) { throw KeyError(.lacksScope, "API key lacks scope \(scope)") }
        return client
    }
}

extension HTTPField.Name {
    public static let apiKey = HTTPField.Name("X-API-Key")!
}
