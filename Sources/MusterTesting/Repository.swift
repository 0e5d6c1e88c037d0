public import Foundation

/// Paths in this repository, found from this file's location.
public enum Repository {
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() } // file → MusterTesting → Sources → root
        return url
    }()

    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Runs a command from the repository root and returns its standard output.
    public static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// PYTHONPATH with the project's pinned Python tools (`make tools` installs them in .tools/py).
    public static var pythonEnvironment: [String: String] {
        let local = path(".tools/py")
        let existing = ProcessInfo.processInfo.environment["PYTHONPATH"].map { ":" + $0 } ?? ""
        return ["PYTHONPATH": local + existing]
    }
}
