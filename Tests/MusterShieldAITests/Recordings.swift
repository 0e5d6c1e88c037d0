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

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestServerError("\(tool) \(arguments.joined(separator: " ")) failed") }
    }

    /// Tests run in parallel: one makes a recording while another waits for it, never reads it half-written.
    static let making = Mutex(())

    /// The named recording's bytes, made on first use.
    static func bytes(_ name: String) throws -> [UInt8] {
        let file = folder.appendingPathComponent("\(name).wav")
        try making.withLock { _ in
            if !FileManager.default.fileExists(atPath: file.path) { try make(name, file.path) }
        }
        return Array(try Data(contentsOf: file))
    }

    static func make(_ name: String, _ path: String) throws {
        let speech = folder.appendingPathComponent("speech-raw.wav").path
        if !FileManager.default.fileExists(atPath: speech) {
            try run("espeak-ng", ["-w", speech, "Hello, this is my voice for ShieldAI. I am enrolling my voiceprint so that clones of my voice can be detected. Thank you."])
        }
        switch name {
        case "speech": try run("sox", [speech, "-r", "16000", "-c", "1", "-b", "16", path])
        case "8khz": try run("sox", [speech, "-r", "8000", "-c", "1", "-b", "16", path])
        case "stereo": try run("sox", [speech, "-r", "16000", "-c", "2", "-b", "16", path])
        case "short": try run("sox", [speech, "-r", "16000", "-c", "1", "-b", "16", path, "trim", "0", "3"])
        case "silence": try run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", path, "trim", "0", "6"])
        case "long": try run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", path, "synth", "70", "sine", "440", "vol", "0.3"])
        case "8bit": try run("sox", [speech, "-r", "16000", "-c", "1", "-b", "8", path])
        default: throw TestServerError("no recording \(name)")
        }
    }
}
