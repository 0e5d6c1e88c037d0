import Foundation
import MusterTesting

/// A `muster serve` process of the built binary on a test's NATS, for what only a real process
/// shows (its metrics port, two instances side by side); its output goes nowhere.
enum ServeProcess {
    static func start(_ role: String, natsURL: String, data: URL, port: Int, metricsPort: Int?, instance: String,
                      environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: KillNineTests.binary)
        process.arguments = ["serve", role, "--nats-url", natsURL, "--data-dir", data.path, "--port", "\(port)",
                             "--metrics-port", metricsPort.map(String.init) ?? "off", "--instance", instance, "--log-level", "warning"]
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        return process
    }
}
