import Foundation
import MusterTesting
import Testing

/// A `muster serve` process of the built binary on a test's NATS, for what only a real process
/// shows (its metrics port, two instances side by side, a kill -9); its output goes nowhere, or
/// is appended to `log` (two runs of one test can then share a file).
enum ServeProcess {
    static func start(_ role: String, natsURL: String, data: URL, port: Int, metricsPort: Int?, instance: String,
                      environment: [String: String] = [:], log: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: KillNineTests.binary)
        process.arguments = ["serve", role, "--nats-url", natsURL, "--data-dir", data.path, "--port", "\(port)",
                             "--metrics-port", metricsPort.map(String.init) ?? "off", "--instance", instance, "--log-level", "warning"]
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        var output = FileHandle.nullDevice
        if let log {
            if !FileManager.default.fileExists(atPath: log.path) {
                try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
            }
            output = try FileHandle(forWritingTo: log)
            output.seekToEndOfFile()
        }
        process.standardOutput = output
        process.standardError = output
        try process.runAlone()
        return process
    }
}
