import Foundation
package import Logging
import MusterEvents
import MusterNATS

/// Where a rebuild began.
package enum RebuildStart: Sendable, Equatable {
    /// Sequence 1: the log still holds every event the fold reads.
    case beginning
    /// Events the fold reads have expired from the log (their app keeps them for a time): the
    /// rebuild starts from the state saved at `checkpoint`, which holds what they added, and
    /// folds the log from there. The log now begins at `horizon`.
    case savedState(checkpoint: UInt64, horizon: UInt64)
    /// Events the fold reads have expired and there is no saved state to start from: the
    /// rebuilt state holds only what the log still has, from `horizon` on.
    case horizon(UInt64)

    /// What an operator is told; nil when the rebuild is a whole one.
    package var note: String? {
        switch self {
        case .beginning: nil
        case .savedState(let checkpoint, let horizon):
            "events this fold reads before sequence \(horizon) have expired (retention): rebuilt from the saved state at sequence \(checkpoint), not from sequence 1"
        case .horizon(let horizon):
            "events this fold reads before sequence \(horizon) have expired (retention) and no saved state holds them: the rebuilt state has only what the log still holds"
        }
    }
}

/// How far a rebuild has come.
package struct RebuildProgress: Sendable {
    package var applied: UInt64
    package var remaining: UInt64
    package var checkpoint: UInt64
    package var elapsed: Duration
    package var start: RebuildStart = .beginning

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

    /// Rebuilds beside the running fold and returns once the running fold serves the rebuilt
    /// state and has caught up again (at most 30 s): a page that says "rebuilt" then shows it,
    /// and nothing read right after meets the old state being swapped out.
    package nonisolated func rebuildLive() async throws -> UInt64 {
        let snapshot = try await Self.rebuild(log: log, store: store, logger: logger) { _ in }
        let before = await reloadCount
        await requestReload()
        let deadline = ContinuousClock.now + .seconds(30)
        while await !hasReloaded(since: before), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return snapshot.checkpoint
    }

    func foldToEnd(progressEvery: Duration, progress: @Sendable (RebuildProgress) -> Void) async throws -> Snapshot<P.State> {
        let started = ContinuousClock.now
        state = P.initialState
        checkpoint = 0
        // Past the log's horizon for this fold, the saved state is the only record of what the
        // expired events added: start from it (a copy of the tables, or the snapshot file).
        let horizon = try await log.horizon(for: P.filterSubjects)
        let generation = try P.tables.map { try startGeneration($0, copyingCurrent: horizon != nil) }
        if horizon != nil, P.tables == nil,
           let saved = try await store.onBlockingPool({ try $0.load(P.State.self, name: P.name, version: P.version) }) {
            state = saved.state
            checkpoint = saved.checkpoint
        }
        let start: RebuildStart = horizon.map { checkpoint > 0 ? .savedState(checkpoint: checkpoint, horizon: $0) : .horizon($0) } ?? .beginning
        if let note = start.note { logger.notice("rebuild of \(P.name): \(note)") }
        do {
            try await fold(from: started, progressEvery: progressEvery) { report in
                var report = report
                report.start = start
                progress(report)
            }
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
