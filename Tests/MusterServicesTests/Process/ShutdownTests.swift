import Foundation
import FoundationNetworking
import Glibc
import MusterAppTesting
import MusterLog
import MusterOPL
import MusterTesting
import Testing

/// SIGTERM while the moderation checks have a backlog: the process stops within Docker's default
/// 10 s stop timeout and exits 0 (the checks processor once retried its cancellation for the whole
/// 15 s grace period).
@Suite("Graceful shutdown of a real process", .serialized)
struct ShutdownTests {
    @Test func sigtermWithABacklogStopsWithinTenSeconds() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        try await apps.withTestLog { env in
            let port = try freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: KillNineTests.binary)
            process.arguments = ["serve", "all", "--nats-url", env.server.url, "--data-dir", env.server.directory.appendingPathComponent("stop").path,
                                 "--port", "\(port)", "--metrics-port", "off", "--instance", "stoptest", "--log-level", "error"]
            process.environment = ProcessInfo.processInfo.environment.merging(["MUSTER_GAZETTEER": Repository.path("Tests/Fixtures/gazetteer-sample.tsv")]) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.runAlone()
            defer { if process.ending == nil { kill(process.processIdentifier, SIGKILL) } }
            try await eventually("serving", timeout: .seconds(30)) { (try? await MetricsTests.get("http://127.0.0.1:\(port)/health"))?.status == 200 }
            // A backlog for the checks and geocoding processors: 300 submissions without coordinates.
            for n in 0..<300 {
                let details = ActionDetails(organization: "Local \(n)", actionType: "strike", location: "Rapid City, SD",
                                            startDate: "2026-11-01T00:00:00Z", durationDays: 30, description: "backlog \(n)")
                try await env.log.append(ActionSubmitted(actionId: OPLIDs.random("act_"), employer: EmployerDetails(name: "Employer \(n % 20)"),
                                                         action: details, submittedBy: "key_000000000000000\(n % 10)"))
            }
            let asked = ContinuousClock.now
            kill(process.processIdentifier, SIGTERM)
            let ending = try await process.waitForExit(within: .seconds(60), "muster serve all after SIGTERM")
            let took = ContinuousClock.now - asked
            #expect(ending == .exited(0))
            #expect(took < .seconds(10), "SIGTERM took \(took)")
            print("shutdown: SIGTERM to exit in \(took)")
        }
    }
}
