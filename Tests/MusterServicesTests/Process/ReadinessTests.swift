import Foundation
import HTTPTypes
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
}
