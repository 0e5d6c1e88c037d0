import Foundation
package import Hummingbird
import MusterEvents
import MusterLog
package import MusterRuntime

/// Platform routes: who a key is, what it may do, the keys and the projections.
package enum PlatformRoutes {
    struct WhoAmI: ResponseEncodable {
        var keyId: String
        var app: String
        var scopes: [String]
    }

    struct ScopeCheck: ResponseEncodable {
        var keyId: String
        var scope: String
        var granted: Bool
    }

    struct KeyListing: ResponseEncodable {
        struct Entry: Codable {
            var keyId, app, keyPrefix, issuedAt: String
            var scopes: [String]
            var label, issuedBy, revokedAt, revokedReason: String?
        }
        var count: Int
        var keys: [Entry]
    }

    struct ProjectionListing: ResponseEncodable {
        var projections: [ProjectionStatusReport]
    }

    /// The admin scope for platform operations.
    package static let adminScope = "admin:platform"

    package static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory,
                           environment: MusterEnvironment) {
        let platform = routes.group("/api/platform")
        platform.get("/whoami", access: .key(nil, scope: nil)) { _, context in
            let client = try context.key()
            return WhoAmI(keyId: client.id, app: client.app, scopes: client.scopes.sorted())
        }
        platform.get("/whoami/:scope", access: .key(nil, scope: nil)) { _, context in
            let client = try context.key()
            let scope = try context.parameters.require("scope")
            guard client.scopes.contains(scope) else { throw KeyError(.lacksScope, "API key lacks scope \(scope)") }
            return ScopeCheck(keyId: client.id, scope: scope, granted: true)
        }

        let admin = AccessRule.key(PlatformApp.appName, scope: adminScope)
        platform.get("/keys", access: admin) { _, _ in
            let entries = await keys.runner.read { state in
                state.keys.values.sorted { $0.sequence < $1.sequence }.map {
                    KeyListing.Entry(keyId: $0.keyId, app: $0.app, keyPrefix: $0.keyPrefix, issuedAt: $0.issuedAt, scopes: $0.scopes,
                                     label: $0.label, issuedBy: $0.issuedBy, revokedAt: $0.revokedAt, revokedReason: $0.revokedReason)
                }
            }
            return KeyListing(count: entries.count, keys: entries)
        }
        platform.get("/projections", access: admin) { _, _ in
            let reports = await environment.projectionReports()
            return ProjectionListing(projections: reports)
        }
    }
}
