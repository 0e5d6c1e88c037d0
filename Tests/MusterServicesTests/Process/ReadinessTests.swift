import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterRuntime
import MusterTesting
import Testing

@Suite("Each service on its own becomes ready")
struct ReadinessTests {
    /// `/ready` lists only the folds the process runs: a service that tracked a fold it never
    /// starts would stay 503 forever (the collector did, with the analytics folds).
    @Test(arguments: ServiceRole.names)
    func aServiceAloneIsReady(_ name: String) async throws {
        try await apps.withTestApp([name]) { app in
            try await eventually("\(name) ready") { try await app.request("/ready").status == .ok }
            let ready = try await app.request("/ready").json
            let folds = (ready["projections"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(Set(folds).count == folds.count, "\(folds)")
        }
    }

    /// A process whose folds have not opened yet is not ready, whatever their lag reads (0 until a
    /// fold has asked the log): a load balancer would send it reads its folds cannot answer yet.
    @Test func notReadyUntilEveryFoldHasOpened() async throws {
        try await apps.withTestLog { env in
            let modules = apps.modules(try ServiceRole.resolve(["ingest"]), environment: env.environment)
            let app = Application(router: try MusterHTTP.makeRouter(environment: env.environment, modules: modules))
            try await app.test(.router) { client in
                // The services (the folds among them) are not running.
                let ready = try await client.execute(uri: "/ready", method: .get)
                #expect(ready.status == .serviceUnavailable)
                let text = String(buffer: ready.body)
                #expect(text.contains("projection keys is still opening") && text.contains(#""opened":false"#), "\(text)")
            }
        }
    }
}
