import ArgumentParser
import Foundation
import MusterCommandLine
import MusterLog
import MusterNATS
import MusterRuntime
import Synchronization
import MusterServices

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy every stream (the log, dead letters, KV buckets, object stores) into one file while writes go on.",
        discussion: """
        Uses JetStream's own snapshot API: sequence numbers are kept, so projections' checkpoints stay
        valid after a restore (consumers are not: each fold positions its own). The file is a tar archive (`tar tf FILE` lists it) with
        each stream's snapshot and a manifest (streams, sequences, sizes, SHA-256, time, Muster version);
        it appears only when complete, readable by its owner only, and never replaces an existing file.
        Every write acknowledged before the backup began is in it. See docs/backup.md.
        """)

    @Option(name: .shortAndLong, help: "The backup file to write (must not exist).")
    var output: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await common.withJetStream(apiTimeout: .seconds(30)) { jetStream, config, _ in
            let line = ProgressLine(verb: "backup")
            let manifest: BackupManifest
            do {
                manifest = try await LogBackup.take(jetStream, to: output, musterVersion: MusterVersion.current,
                                                    natsURL: config.nats.redactedURL) { line.show($0) }
            } catch let error as BackupError {
                line.end()
                throw CommandFailure("backup failed: \(error)")
            }
            line.end()
            for stream in manifest.streams {
                print("\(stream.name): \(stream.messages) messages, sequences \(stream.firstSequence)–\(stream.lastSequence), \(stream.bytes) bytes, sha256 \(stream.sha256)")
            }
            let size = manifest.streams.reduce(Int64(0)) { $0 + $1.bytes }
            print("wrote \(output): \(manifest.streams.count) streams, \(size) bytes, started \(manifest.startedAt), finished \(manifest.finishedAt)")
        }
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put the streams of a backup file back into a NATS server, sequence numbers and all.",
        discussion: """
        Checks the whole file against its manifest (sizes and SHA-256) before touching the server, and
        refuses to overwrite a stream the server already has unless given --replace. Stop the services
        first; start them after: projections then rebuild or resume from the restored log. See docs/backup.md.
        """)

    @Argument(help: "The backup file `muster backup` wrote.")
    var file: String

    @Flag(help: "Delete streams the server already has and restore them from the backup.")
    var replace = false

    @Flag(help: "Only check the file against its manifest; change nothing.")
    var verifyOnly = false

    @OptionGroup var common: CommonOptions

    func run() async throws {
        if verifyOnly {
            let line = ProgressLine(verb: "verify")
            do {
                let (manifest, _) = try await LogRestore.verify(file) { line.show($0) }
                line.end()
                print("\(file) is intact: \(manifest.streams.count) streams from Muster \(manifest.musterVersion), taken \(manifest.startedAt)")
            } catch let error as BackupError {
                line.end()
                throw CommandFailure("\(file): \(error)")
            }
            return
        }
        try await common.withJetStream(apiTimeout: .seconds(30)) { jetStream, _, _ in
            let checking = ProgressLine(verb: "verify")
            let line = ProgressLine(verb: "restore")
            let restored: [LogRestore.Restored]
            do {
                restored = try await LogRestore.restore(file, into: jetStream, replacing: replace,
                                                        verifying: { checking.show($0) }, progress: { checking.end(); line.show($0) })
            } catch let error as BackupError {
                checking.end()
                line.end()
                throw CommandFailure("restore failed, nothing was changed: \(error)")
            }
            line.end()
            for stream in restored {
                print("\(stream.name): \(stream.messages) messages up to sequence \(stream.lastSequence) (at backup start: \(stream.backedUpMessages) up to \(stream.backedUpLastSequence))")
            }
            print("restored \(restored.count) streams from \(file)")
        }
    }
}

/// A progress line on standard error, redrawn in place (at most every 200 ms, and at each stream's end).
final class ProgressLine: Sendable {
    let verb: String
    private struct Drawn { var at: ContinuousClock.Instant?; var open = false }
    private let drawn = Mutex(Drawn())

    init(verb: String) { self.verb = verb }

    func show(_ progress: BackupProgress) {
        let now = ContinuousClock.now
        let finished = progress.bytes == progress.expected // each stream's last report (a snapshot's size is known only then)
        let due = drawn.withLock { drawn in
            guard finished || drawn.at.map({ now - $0 >= .milliseconds(200) }) ?? true else { return false }
            drawn.at = now
            drawn.open = true
            return true
        }
        guard due else { return }
        let percent = progress.expected > 0 ? min(100, Int(progress.bytes * 100 / progress.expected)) : 100
        let text = String(format: "\r%@ %d/%d %@: %3d%% %@ (%@ in all)\u{1B}[K", verb, progress.index, progress.streams,
                          progress.stream, percent, megabytes(progress.bytes), megabytes(progress.total))
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Ends the line (once), so what is printed next starts on a line of its own.
    func end() {
        if drawn.withLock({ drawn in defer { drawn.open = false }; return drawn.open }) {
            FileHandle.standardError.write(Data("\n".utf8))
        }
    }

    private func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
