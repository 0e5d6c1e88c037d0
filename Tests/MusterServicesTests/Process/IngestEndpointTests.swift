import Foundation
import MusterAppTesting
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterTesting
import Testing

@Suite("ingest: validated appends over NATS")
struct IngestEndpointTests {
    @Test func goodBadHostileAndDuplicatedRequests() async throws {
        try await apps.withTestLog { env in
            let service = MicroService(connection: env.connection, name: "muster-ingest", version: "test", description: "ingest",
                                       endpoints: apps.modules(["ingest"], environment: env.environment).flatMap { $0.endpoints(in: env.environment) })
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try await eventually("ingest listening") {
                    (try? await env.connection.request("$SRV.PING.muster-ingest", timeout: .milliseconds(200))) != nil
                }
                func append(_ body: String) async throws -> NATSMessage {
                    try await env.connection.request("muster.ingest.append", payload: Data(body.utf8))
                }
                let keyId = issuedKey(scopes: ["read:mobile"]).event.keyId
                let good = #"{"type": "platform.apikey.revoked.v2", "idempotencyKey": "k1", "data": {"keyId": "\#(keyId)", "reason": "r", "revokedBy": "ops"}}"#
                let first = try await append(good)
                #expect(first.headers["Nats-Service-Error-Code"] == nil)
                #expect(String(decoding: first.payload, as: UTF8.self).contains(#""sequence":1"#))
                let again = try await append(good)
                #expect(String(decoding: again.payload, as: UTF8.self).contains(#""duplicate":true"#))

                let refusals: [(String, String)] = [
                    ("not json at all", "400"),
                    (#"{"type": "nonsense", "data": {}}"#, "400"),
                    (#"{"type": "platform.apikey.revoked.v2", "data": {"keyId": "\#(keyId)"}}"#, "422"),
                    (#"{"type": "platform.nothing.here.v1", "data": {}}"#, "422"),
                    (String(repeating: "x", count: 300 * 1024), "413"),
                ]
                for (body, code) in refusals {
                    let reply = try await append(body)
                    #expect(reply.headers["Nats-Service-Error-Code"] == code, "\(body.prefix(60)): \(reply.headers["Nats-Service-Error"] ?? "")")
                }
                #expect(try await env.log.jetStream.streamInfo("EVENTS").state.messages == 1)
                group.cancelAll()
            }
        }
    }
}
