import Foundation
package import Logging
import MusterEvents
import MusterNATS

/// How far a rebuild has come.
package struct RebuildProgress: Sendable {
    package var applied: UInt64
    package var remaining: UInt64
    package var checkpoint: UInt64
    package var elapsed: Duration

    package var fraction: Double {
        let total = applied + remaining
        return total == 0 ? 1 : Double(applied) / Double(total)
    }

    package var eventsPerSecond: Double {
        let seconds = elapsed.inSeconds
        return seconds > 0 ? Double(applied) / seconds : 0
    }
}

extension ProjectionRunner {
    /// Rebuilds the projection from sequence 1 on a scratch consumer into fresh state, reporting
    /// progress, and when caught up replaces the snapshot file (or the database link) in one rename. A running server
    /// keeps serving its old state until it is told to reload (`muster.projection.<name>.reload`).
    /// With `through`, nothing past that stream sequence is folded: the projection as it was at
    /// that point of the log (a restore drill compares two logs so).
    package static func rebuild(log: EventLog, store: SnapshotStore, logger: Logger,
                               progressEvery: Duration = .milliseconds(500), through: UInt64? = nil,
                               progress: @escaping @Sendable (RebuildProgress) -> Void) async throws -> Snapshot<P.State> {
        let scratch = "proj_\(P.name)_v\(P.version)_rebuild_\(UInt32.random(in: .min ... .max))"
        var options = Options()
        options.batch = 4096
        options.through = through
        let runner = ProjectionRunner(P.self, log: log, store: store, options: options, logger: logger,
                                      consumerName: scratch, savesWhileFolding: false)
        do {
            let snapshot = try await onFoldThreads { try await runner.foldToEnd(progressEvery: progressEvery, progress: progress) }
            try await log.jetStream.deleteConsumer(stream: log.configuration.eventsStream, name: scratch)
            return snapshot
        } catch {
            // The scratch consumer also removes itself after its inactivity threshold.
            _ = try? await log.jetStream.deleteConsumer(stream: log.configuration.eventsStream, name: scratch)
            throw error
        }
    }

    package nonisolated func rebuildLive() async throws -> UInt64 {
        let snapshot = try await Self.rebuild(log: log, store: store, logger: logger) { _ in }
        await requestReload()
        return snapshot.checkpoint
    }

    func foldToEnd(progressEvery: Duration, progress: @Sendable (RebuildProgress) -> Void) async throws -> Snapshot<P.State> {
        let started = ContinuousClock.now
        state = P.initialState
        checkpoint = 0
        let generation = try P.tables.map(startGeneration)
        do {
            try await fold(from: started, progressEvery: progressEvery, progress: progress)
        } catch {
            if let generation { discard(generation) }
            throw error
        }
        let snapshot = Snapshot(projection: P.name, version: P.version, checkpoint: checkpoint,
                                savedAt: Timestamp.string(Date()), state: state)
        if let generation {
            try await store.onBlockingPool { try $0.publishDatabase(generation, name: P.name, version: P.version) }
            closeDatabase()
        } else {
            try await store.onBlockingPool { try $0.save(snapshot) }
        }
        return snapshot
    }

    private func fold(from started: ContinuousClock.Instant, progressEvery: Duration, progress: @Sendable (RebuildProgress) -> Void) async throws {
        try await positionConsumer()
        var applied: UInt64 = 0
        var lastReport = started
        if !caughtUp {
            try await foldBatches(idle: { caughtUp ? .stop : .fold }, folded: { count, last in
                applied += UInt64(count)
                if last.delivery.pending == 0 { return .stop }
                if ContinuousClock.now - lastReport >= progressEvery {
                    lastReport = .now
                    progress(RebuildProgress(applied: applied, remaining: last.delivery.pending,
                                             checkpoint: checkpoint, elapsed: .now - started))
                }
                return .fold
            })
            try Task.checkCancellation()
        }
        progress(RebuildProgress(applied: applied, remaining: 0, checkpoint: checkpoint, elapsed: .now - started))
    }

    /// Closes and removes a generation a failed rebuild leaves.
    private func discard(_ generation: URL) {
        closeDatabase()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: generation.path + suffix)
        }
    }
}
