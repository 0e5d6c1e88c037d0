import HTTPTypes
import Hummingbird
import MusterLog
import MusterRuntime

/// Authenticates `X-API-Key` against the keys projection and checks a scope.
///
/// 401 for a missing, malformed, unknown or revoked key; 403 for a missing scope; 503 (with
/// `Retry-After`) for an unknown key while the projection is still catching up, so an app that
/// deletes its key on 401 never does so because the server had just started.
public struct APIKeyMiddleware: RouterMiddleware {
    public typealias Context = MusterRequestContext
    let keys: ProjectionRunner<KeysProjection>
    let scope: String?

    public init(keys: ProjectionRunner<KeysProjection>, scope: String?) {
        self.keys = keys
        self.scope = scope
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.client = try await authenticate(request.headers[.apiKey])
        if let scope, !(context.client?.scopes.contains(scope) ?? false) {
            throw APIError(.forbidden, "API key lacks scope \(scope)")
        }
        return try await next(request, context)
    }

    public func authenticate(_ presented: String?) async throws -> AuthenticatedClient {
        guard let presented = presented?.trimmingCharacters(in: .whitespaces), !presented.isEmpty else {
            throw APIError(.unauthorized, "missing API key: send it in the X-API-Key header")
        }
        guard APIKey.isWellFormed(presented) else { throw APIError(.unauthorized, "invalid API key") }
        let hash = APIKey.hash(presented)
        let key = await keys.read { state in state.byHash[hash].flatMap { state.keys[$0] } }
        guard let key, APIKey.constantTimeEquals(key.keyHash, hash) else {
            if await !keys.caughtUp {
                throw APIError(.serviceUnavailable, "keys are still loading; retry shortly", headers: [.retryAfter: "2"])
            }
            throw APIError(.unauthorized, "unknown API key")
        }
        guard key.revokedAt == nil else { throw APIError(.unauthorized, "API key has been revoked") }
        return AuthenticatedClient(id: key.keyId, app: key.app, scopes: Set(key.scopes))
    }
}

extension HTTPField.Name {
    public static let apiKey = HTTPField.Name("X-API-Key")!
}
