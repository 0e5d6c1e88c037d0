package import Foundation

/// Paths in this repository, found from this file's location.
package enum Repository {
    package static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() } // file → MusterTesting → Sources → root
        return url
    }()

    package static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Runs a command (found on PATH) from the repository root and returns its exit status and output,
    /// within `limit`.
    package static func run(_ arguments: [String], environment extra: [String: String] = [:],
                           within limit: Duration = .seconds(300)) async throws -> (status: Int32, output: String, error: String) {
        let environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        return try await runToEnd("/usr/bin/env", arguments, in: root, environment: environment, within: limit)
    }

    /// PYTHONPATH with the project's pinned Python tools (`make tools` installs them in .tools/py).
    package static var pythonEnvironment: [String: String] {
        let local = path(".tools/py")
        let existing = ProcessInfo.processInfo.environment["PYTHONPATH"].map { ":" + $0 } ?? ""
        return ["PYTHONPATH": local + existing]
    }
}
