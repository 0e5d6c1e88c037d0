import Foundation
package import HTTPTypes
import MusterEvents
package import MusterLog
package import MusterRuntime
import Synchronization

/// Who a presented API key is, answered from the keys projection, with the answers of known
/// keys remembered until the projection moves (a key issued or revoked clears them all). The
/// hot path is then a lock and a dictionary lookup: no SHA-256 and no wait for the actor.
package final class APIKeyDirectory: Sendable {
    package let runner: ProjectionRunner<KeysProjection>
    private let known = Mutex<(checkpoint: UInt64, clients: [String: AuthenticatedClient])>((0, [:]))
    static let limit = 10_000

    /// What a key of each app may carry: a stored key's scopes are narrowed to it.
    let scopes: KeyScopes

    package init(runner: ProjectionRunner<KeysProjection>, scopes: KeyScopes) {
        self.runner = runner
        self.scopes = scopes
    }

    /// The client of a key already seen at the keys projection's current checkpoint; never waits.
    package func rememberedClient(_ presented: String) -> AuthenticatedClient? {
        let checkpoint = runner.currentCheckpoint
        return known.withLock { $0.checkpoint == checkpoint ? $0.clients[presented] : nil }
    }

    /// Refused for a missing, malformed, unknown or revoked key; `.loading` for an unknown key
    /// while the projection is still catching up, so an app that deletes its key on 401 never
    /// does so because the server had just started.
    package func authenticate(_ presented: String?) async throws -> AuthenticatedClient {
        guard let presented = presented?.trimmingCharacters(in: .whitespaces), !presented.isEmpty else {
            throw KeyError(.missing, "missing API key: send it in the X-API-Key header")
        }
        let checkpoint = runner.currentCheckpoint
        if let client = known.withLock({ $0.checkpoint == checkpoint ? $0.clients[presented] : nil }) { return client }
        guard APIKey.isWellFormed(presented) else { throw KeyError(.refused, "invalid API key") }
        let hash = APIKey.hash(presented)
        let key = await runner.read { state in state.byHash[hash].flatMap { state.keys[$0] } }
        guard let key, APIKey.constantTimeEquals(key.keyHash, hash) else {
            if await !runner.caughtUp {
                throw KeyError(.loading, "keys are still loading; retry shortly")
            }
            throw KeyError(.refused, "unknown API key")
        }
        guard key.revokedAt == nil else { throw KeyError(.refused, "API key has been revoked") }
        let client = AuthenticatedClient(id: key.keyId, app: key.app, scopes: Set(key.scopes).intersection(scopes.allowed(forKeyOf: key.app)))
        known.withLock { known in
            // Remember only what was read at the checkpoint the cache stands for.
            if known.checkpoint != checkpoint || known.clients.count >= Self.limit { known = (checkpoint, [:]) }
            known.clients[presented] = client
        }
        return client
    }
}

extension APIKeyDirectory {
    /// The client of a presented key, if it is `app`'s (any app's when nil) and carries `scope`:
    /// for sign-in forms, which take a key as typed. Requests' keys are proved by the
    /// authentication step (`PlatformAuthenticator`) and admitted by their route's `AccessRule`.
    package func authenticate(_ presented: String?, app: String?, scope: String?) async throws -> AuthenticatedClient {
        let client = try await authenticate(presented)
        if let app, client.app != app { throw KeyError(.otherApp, "this API key is not for \(app)") }
        if let scope, !client.scopes.contains(scope) { throw KeyError(.lacksScope, "API key lacks scope \(scope)") }
        return client
    }
}

extension HTTPField.Name {
    // The unwrap cannot fail: a literal token (letters and -) is a valid field name.
    package static let apiKey = HTTPField.Name("X-API-Key")!
}
