import Foundation
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterTesting
import NIOFoundationEssentialsCompat
import ServiceLifecycle
import Testing

@Suite("API keys over HTTP")
struct APIKeyHTTPTests {
    /// The whole `serve all` router on a fresh log, with its projections running.
    func withApp(_ body: @escaping @Sendable (any TestClientProtocol, TestLog, ProjectionRunner<KeysProjection>) async throws -> Void) async throws {
        try await apps.withTestLog { env in
            let modules = apps.modules(["ingest", "query"], environment: env.environment)
            let app = Application(router: try MusterHTTP.makeRouter(environment: env.environment, modules: modules))
            let keys = env.environment.projections.runner(KeysProjection.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for service in apps.services(of: modules, environment: env.environment) {
                    group.addTask { try await service.run() }
                }
                try await app.test(.router) { client in try await body(client, env, keys) }
                group.cancelAll()
            }
        }
    }

    func errorMessage(_ response: TestResponse) -> String {
        (try? JSONDecoder().decode([String: String].self, from: Data(buffer: response.body)))?["error"] ?? "<no {error} body>"
    }

    @Test func keysOpenRoutesAndEveryRefusalIsAClearError() async throws {
        try await withApp { client, env, keys in
            // `read:mobile` is no scope of any app this process serves (only the platform): a key's
            // scopes are narrowed to what its app may carry on every request.
            let (key, issued) = issuedKey(scopes: ["devices:register", "read:mobile"])
            let sequence = try await env.log.append(issued).sequence
            try await eventually("key projected") { await keys.checkpoint == sequence }

            try await client.execute(uri: "/api/platform/whoami", method: .get, headers: [.apiKey: key]) { response in
                #expect(response.status == .ok)
                let body = try JSONDecoder().decode([String: AnyCodable].self, from: Data(buffer: response.body))
                #expect(body["keyId"]?.string == issued.keyId)
            }
            try await client.execute(uri: "/api/platform/whoami/devices:register", method: .get, headers: [.apiKey: key]) { response in
                #expect(response.status == .ok)
            }
            let refusals: [(HTTPFields, String, HTTPResponse.Status, String)] = [
                ([:], "/api/platform/whoami", .unauthorized, "missing API key"),
                ([.apiKey: ""], "/api/platform/whoami", .unauthorized, "missing API key"),
                ([.apiKey: "opl_123"], "/api/platform/whoami", .unauthorized, "invalid API key"),
                ([.apiKey: String(repeating: "z", count: 5000)], "/api/platform/whoami", .unauthorized, "invalid API key"),
                ([.apiKey: "opl_" + String(repeating: "ab", count: 32)], "/api/platform/whoami", .unauthorized, "unknown API key"),
                ([.apiKey: key.uppercased()], "/api/platform/whoami", .unauthorized, "invalid API key"),
                ([.apiKey: key], "/api/platform/whoami/admin:platform", .forbidden, "lacks scope admin:platform"),
                ([.apiKey: key], "/api/platform/whoami/read:mobile", .forbidden, "lacks scope read:mobile"),
                // Hole 6 of the authorization review: a key of another app never administers the platform.
                ([.apiKey: key], "/api/platform/keys", .unauthorized, "this API key is not for platform"),
                ([.apiKey: key], "/api/platform/nothing-here", .notFound, "no route GET /api/platform/nothing-here"),
            ]
            for (headers, uri, status, message) in refusals {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == status, "\(uri) with \(headers)")
                    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                    #expect(errorMessage(response).contains(message), "\(uri): \(errorMessage(response))")
                }
            }

            // Revoked: 401 from the moment the projection has the revocation.
            let revoked = try await env.log.append(APIKeyRevoked(keyId: issued.keyId, reason: "test", revokedBy: "test")).sequence
            try await eventually("revocation projected") { await keys.checkpoint == revoked }
            try await client.execute(uri: "/api/platform/whoami", method: .get, headers: [.apiKey: key]) { response in
                #expect(response.status == .unauthorized)
                #expect(errorMessage(response).contains("revoked"))
            }
        }
    }

    @Test func adminListsKeysWithoutSecretsOrHashes() async throws {
        try await withApp { client, env, keys in
            let (admin, adminEvent) = issuedKey(app: "platform", scopes: [PlatformRoutes.adminScope])
            let (_, other) = issuedKey(scopes: ["read:mobile"])
            _ = try await env.log.append(adminEvent)
            let last = try await env.log.append(other).sequence
            try await eventually("keys projected") { await keys.checkpoint == last }
            try await client.execute(uri: "/api/platform/keys", method: .get, headers: [.apiKey: admin]) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains(other.keyId) && text.contains(adminEvent.keyId))
                #expect(!text.contains(other.keyHash) && !text.contains("keyHash"))
            }
            try await client.execute(uri: "/api/platform/projections", method: .get, headers: [.apiKey: admin]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""name":"keys""#))
            }
        }
    }

    @Test func healthReadyAndMetrics() async throws {
        try await withApp { client, env, keys in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            // Ready once every fold has opened and caught up (beside the whole suite, a fold's first
            // consumer request can meet a JetStream busy with others, and it retries each second).
            try await eventually("ready") { try await client.execute(uri: "/ready", method: .get).status == .ok }
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""ready":true"#))
            }
            // Not on the public port: /metrics has a port of its own.
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .notFound) }
            let metrics = Router()
            MetricsRoutes.add(to: metrics, environment: env.environment)
            try await Application(router: metrics).test(.router) { scraper in
                try await scraper.execute(uri: "/metrics", method: .get) { response in
                    #expect(response.status == .ok)
                    let text = String(buffer: response.body)
                    #expect(text.contains("# HELP muster_nats_connected ") && text.contains("muster_nats_connected 1"))
                }
            }
        }
    }

    @Test func readyAnswers503WhenNATSIsGone() async throws {
        try await withApp { client, env, _ in
            env.server.stop()
            try await eventually("NATS noticed gone") { env.connection.status != .connected }
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""ready":false"#))
            }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
    }
}

/// Just enough of "any JSON" to read a field in a test.
struct AnyCodable: Decodable {
    let string: String?
    init(from decoder: any Decoder) throws { string = try? decoder.singleValueContainer().decode(String.self) }
}
