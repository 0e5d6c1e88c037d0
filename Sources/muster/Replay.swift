import ArgumentParser
import Foundation
import Logging
import MusterCommandLine
import MusterLog
import MusterNATS
import MusterRuntime
import MusterServices
import Synchronization

struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a projection from sequence 1 into fresh state, then swap it in.",
        discussion: """
        The rebuild reads the log on a scratch consumer and shows progress; a running server keeps
        serving the old state until the new snapshot is complete, then reloads it.
        Projections: \(ProjectionCatalog.names.joined(separator: ", ")).
        """)

    @Argument(help: "Projection name.")
    var name: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        guard let rebuild = ProjectionCatalog.rebuilders[name] else {
            throw ValidationError("unknown projection \(name); known: \(ProjectionCatalog.names.joined(separator: ", "))")
        }
        try await common.withLog { log, config, logger in
            let store = SnapshotStore(directory: config.projectionsDirectory)
            let start = Mutex(RebuildStart.beginning)
            let (checkpoint, version) = try await rebuild(log, store, logger) { progress in
                start.withLock { $0 = progress.start }
                let percent = Int(progress.fraction * 100)
                let line = String(format: "\rreplay %@: %3d%%  %llu applied, %llu to go, %.0f events/s", name, percent,
                                  progress.applied, progress.remaining, progress.eventsPerSecond)
                FileHandle.standardError.write(Data(line.utf8))
            }
            FileHandle.standardError.write(Data("\n".utf8))
            if let note = start.withLock({ $0.note }) { print("note: \(note)") }
            print("rebuilt \(name) to sequence \(checkpoint): \(store.url(name: name, version: version).path)")
            let subject = "muster.projection.\(name).reload.\(config.instance)"
            do {
                _ = try await log.jetStream.connection.request(subject, timeout: .seconds(3))
                print("running server (instance \(config.instance)) reloaded it")
            } catch {
                print("no running server for instance \(config.instance) answered; the next start uses the rebuilt snapshot")
            }
        }
    }
}

/// Projections `muster replay` can rebuild, by name: every app's.
enum ProjectionCatalog {
    /// Rebuilds one projection; answers the checkpoint reached and the projection's version.
    typealias Rebuild = @Sendable (EventLog, SnapshotStore, Logger, @escaping @Sendable (RebuildProgress) -> Void) async throws -> (UInt64, Int)

    static let rebuilders: [String: Rebuild] = {
        var rebuilders: [String: Rebuild] = [:]
        for projection in MusterProcess.apps.projections {
            let (name, rebuild) = entry(projection)
            rebuilders[name] = rebuild
        }
        return rebuilders
    }()

    static func entry<P: Projection>(_ type: P.Type) -> (String, Rebuild) {
        (P.name, { log, store, logger, progress in
            (try await ProjectionRunner<P>.rebuild(log: log, store: store, logger: logger, progress: progress).checkpoint, P.version)
        })
    }

    static var names: [String] { rebuilders.keys.sorted() }
}
