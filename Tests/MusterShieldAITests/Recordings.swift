import Foundation
import MusterTesting
import Synchronization

/// Real audio made with Debian's espeak-ng (speech) and sox (resampling, trimming, silence), once
/// per test run, in a temporary folder.
enum Recordings {
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("muster-voice-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Made once per run, by whichever test asks first; the others wait for the same task.
    private static let made = Mutex<Task<Void, any Error>?>(nil)

    /// The named recording's bytes. The tools run as processes the test awaits: a blocking wait
    /// would hold one of the two threads the whole suite runs on, on a 2-core machine.
    static func bytes(_ name: String) async throws -> [UInt8] {
        let task = made.withLock { task in
            if let task { return task }
            let made = Task { try await makeAll() }
            task = made
            return made
        }
        try await task.value
        let file = folder.appendingPathComponent("\(name).wav")
        guard FileManager.default.fileExists(atPath: file.path) else { throw TestServerError("no recording \(name)") }
        return Array(try Data(contentsOf: file))
    }

    static func run(_ tool: String, _ arguments: [String]) async throws {
        let (status, _, error) = try await runToEnd("/usr/bin/\(tool)", arguments, within: .seconds(120))
        guard status == 0 else { throw TestServerError("\(tool) \(arguments.joined(separator: " ")) failed: \(error.suffix(500))") }
    }

    static func makeAll() async throws {
        let speech = folder.appendingPathComponent("speech-raw.wav").path
        try await run("espeak-ng", ["-w", speech, "Hello, this is my voice for ShieldAI. I am enrolling my voiceprint so that clones of my voice can be detected. Thank you."])
        let path = { (name: String) in folder.appendingPathComponent("\(name).wav").path }
        try await run("sox", [speech, "-r", "16000", "-c", "1", "-b", "16", path("speech")])
        try await run("sox", [speech, "-r", "8000", "-c", "1", "-b", "16", path("8khz")])
        try await run("sox", [speech, "-r", "16000", "-c", "2", "-b", "16", path("stereo")])
        try await run("sox", [speech, "-r", "16000", "-c", "1", "-b", "16", path("short"), "trim", "0", "3"])
        try await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", path("silence"), "trim", "0", "6"])
        try await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", path("long"), "synth", "70", "sine", "440", "vol", "0.3"])
        try await run("sox", [speech, "-r", "16000", "-c", "1", "-b", "8", path("8bit")])
    }
}
