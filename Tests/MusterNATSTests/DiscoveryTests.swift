import Foundation
import MusterNATS
import MusterTesting
import Testing

@Suite("NATS service discovery ($SRV)")
struct DiscoveryTests {
    @Test func pingInfoStatsAndAnEndpoint() async throws {
        try await withNATS { nats, _ in
            let service = MicroService(connection: nats, name: "muster-test", version: "1.2.3", description: "a test",
                                       endpoints: [MicroEndpoint(name: "echo", subject: "test.echo") { request in
                                           if request.payload.isEmpty { throw MicroServiceError(code: 400, "empty") }
                                           return request.payload
                                       }])
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try await eventually("service subscribed") {
                    (try? await nats.request("$SRV.PING.muster-test", timeout: .seconds(1))) != nil
                }
                let ping = try JSONSerialization.jsonObject(with: try await nats.request("$SRV.PING").payload) as? [String: Any]
                #expect(ping?["type"] as? String == "io.nats.micro.v1.ping_response")
                #expect(ping?["name"] as? String == "muster-test")
                let info = try JSONSerialization.jsonObject(with: try await nats.request("$SRV.INFO.muster-test").payload) as? [String: Any]
                #expect((info?["endpoints"] as? [[String: Any]])?.first?["subject"] as? String == "test.echo")

                #expect(try await nats.request("test.echo", payload: Data("hi".utf8)).payload == Data("hi".utf8))
                let refused = try await nats.request("test.echo")
                #expect(refused.headers["Nats-Service-Error-Code"] == "400")

                let stats = try JSONSerialization.jsonObject(with: try await nats.request("$SRV.STATS.muster-test.\(service.id)").payload) as? [String: Any]
                let endpoint = (stats?["endpoints"] as? [[String: Any]])?.first
                #expect(endpoint?["num_requests"] as? Int == 2)
                #expect(endpoint?["num_errors"] as? Int == 1)
                group.cancelAll()
            }
        }
    }
}
