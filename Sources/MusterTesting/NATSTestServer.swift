import Foundation

/// A real `nats-server` with JetStream, started for a test on a free port in a temporary folder
/// and removed with it.
public final class NATSTestServer: Sendable {
    public let url: String
    public let directory: URL
    let process: Process

    private init(url: String, directory: URL, process: Process) {
        self.url = url
        self.directory = directory
        self.process = process
    }

    /// The binary: `$NATS_SERVER_BIN`, the project's pinned copy in `.tools/`, or one on `PATH`.
    public static func binary() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["NATS_SERVER_BIN"] { return explicit }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(".tools/nats/bin/nats-server").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(dir)/nats-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestServerError("nats-server not found: run `make tools` or set NATS_SERVER_BIN")
    }

    /// Starts a server and waits until it accepts clients.
    public static func start(extraArguments: [String] = [], environment: [String: String] = [:]) async throws -> NATSTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("muster-nats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = ["-a", "127.0.0.1", "-p", "-1", "-js", "-sd", directory.appendingPathComponent("js").path,
                             "--ports_file_dir", directory.path, "-l", directory.appendingPathComponent("server.log").path]
            + extraArguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // nats-server writes its ports file once it listens.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let file = try? FileManager.default.contentsOfDirectory(atPath: directory.path).first(where: { $0.hasSuffix(".ports") }),
               let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path),
               let ports = try? JSONDecoder().decode([String: [String]].self, from: data),
               let url = ports["nats"]?.first {
                return NATSTestServer(url: url, directory: directory, process: process)
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        throw TestServerError("nats-server did not start: \(log.suffix(2000))")
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
