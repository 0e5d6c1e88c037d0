package import Foundation
import Glibc
import Synchronization

/// A real `nats-server` with JetStream, started for a test on a free port in a temporary folder
/// and removed with it.
package final class NATSTestServer: Sendable {
    package let url: String
    package let directory: URL
    let arguments: [String]
    let environment: [String: String]
    /// The running server; a restart replaces it (same port, same storage).
    let process: Mutex<Process>

    private init(url: String, directory: URL, process: Process, arguments: [String], environment: [String: String]) {
        self.url = url
        self.directory = directory
        self.process = Mutex(process)
        self.arguments = arguments
        self.environment = environment
    }

    /// The binary: `$NATS_SERVER_BIN`, the project's pinned copy in `.tools/`, or one on `PATH`.
    package static func binary() throws -> String {
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
    package static func start(extraArguments: [String] = [], environment: [String: String] = [:]) async throws -> NATSTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("muster-nats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let arguments = ["-a", "127.0.0.1", "-js", "-sd", directory.appendingPathComponent("js").path,
                         "--ports_file_dir", directory.path, "-l", directory.appendingPathComponent("server.log").path] + extraArguments
        let (process, url) = try await launch(arguments + ["-p", "-1"], directory: directory, environment: environment)
        return NATSTestServer(url: url, directory: directory, process: process, arguments: arguments, environment: environment)
    }

    private static func launch(_ arguments: [String], directory: URL, environment: [String: String]) async throws -> (Process, String) {
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where file.hasSuffix(".ports") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        // nats-server writes its ports file once it listens.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let file = try? FileManager.default.contentsOfDirectory(atPath: directory.path).first(where: { $0.hasSuffix(".ports") }),
               let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path),
               let ports = try? JSONDecoder().decode([String: [String]].self, from: data),
               let url = ports["nats"]?.first {
                return (process, url)
            }
            if process.ending != nil { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGKILL)
        let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        throw TestServerError("nats-server did not start: \(log.suffix(2000))")
    }

    /// Stops the server but keeps its storage, as an outage would (`restart()` brings it back).
    package func halt() async throws {
        try await process.withLock { $0 }.stop(within: .seconds(30), "nats-server (SIGTERM)")
    }

    /// Kills the server with SIGKILL, as a crash or an OOM kill would; storage stays.
    package func crash() async throws {
        try await process.withLock { $0 }.stop(signal: SIGKILL, "nats-server (SIGKILL)")
    }

    /// Starts the server again on the same port with the same storage.
    package func restart() async throws {
        try await halt()
        guard let port = url.split(separator: ":").last.map(String.init) else { throw TestServerError("no port in \(url)") }
        let (process, _) = try await Self.launch(arguments + ["-p", port], directory: directory, environment: environment)
        self.process.withLock { $0 = process }
    }

    /// Kills the server (SIGKILL: nothing of it is kept) and removes its folder. Never waits for
    /// the process (a `defer` calls this, on a thread of the concurrency pool): the kernel ends it.
    package func stop() {
        let process = self.process.withLock { $0 }
        if process.ending == nil { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

package struct TestServerError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
