public import HTTPTypes
public import Hummingbird
import MusterEvents
import MusterLog
public import MusterRuntime

/// Authenticates `X-API-Key` against the keys projection and checks a scope.
///
/// 401 for a missing, malformed, unknown or revoked key; 403 for a missing scope; 503 (with
/// `Retry-After`) for an unknown key while the projection is still catching up, so an app that
/// deletes its key on 401 never does so because the server had just started.
public struct APIKeyMiddleware: RouterMiddleware {
    public typealias Context = MusterRequestContext
    let directory: APIKeyDirectory
    let scope: String?

    public init(keys: APIKeyDirectory, scope: String?) {
        self.directory = keys
        self.scope = scope
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.client = try await directory.authenticate(request.headers[.apiKey])
        if let scope, !(context.client?.scopes.contains(scope) ?? false) {
            throw KeyError(.lacksScope, "API key lacks scope \(scope)")
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    public static let apiKey = HTTPField.Name("X-API-Key")!
}
