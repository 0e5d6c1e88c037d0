import Foundation
import GRDB
package import Logging
import Metrics
import MusterEvents
import MusterNATS
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Keeps one projection up to date from the log, as a `Service`.
///
/// The snapshot file is the cursor: at start (and on reload) the runner loads it and recreates its
/// durable consumer at checkpoint + 1, so nothing the server remembers can disagree with it. The
/// consumer needs no acks; events at or below the checkpoint are skipped, which makes re-delivery
/// harmless. Poison events go to the DLQ with the reason and the runner carries on.
package actor ProjectionRunner<P: Projection> {
    package struct Options: Sendable {
        package var batch = 512
        package var snapshotEveryEvents = 20_000
        package var snapshotInterval: Duration = .seconds(2)
        /// How long a caught-up fold waits for an event before its housekeeping (a snapshot of
        /// what it folded); its pull request stays open on the server for `pullExpiry`.
        package var idleWait: Duration = .seconds(1)
        /// How long one pull request lives: a caught-up fold asks the server again this often,
        /// and at once after a reconnect (`PullConsumer.idleAfter`).
        package var pullExpiry: Duration = .seconds(30)
        /// Folds nothing past this stream sequence (a rebuild "as of" a point in the log); nil: all.
        package var through: UInt64?
        package init() {}
    }

    package let log: EventLog
    package let store: SnapshotStore
    package let options: Options
    let logger: Logger
    /// The durable consumer this runner reads through: the projection's own, or a scratch one for a rebuild.
    let consumerName: String
    /// A rebuild saves only once, when it has caught up, so a half-built state never replaces a whole one.
    let savesWhileFolding: Bool
    /// What this process appended, for a live fold to take as appended; nil for a rebuild, which
    /// reads every event as the log stores it.
    var appendedHere: AppendedEvents? { savesWhileFolding ? log.appended : nil }
    /// The durable consumers this instance's earlier versions of the projection left on the
    /// server; removed once at start (a version bump would otherwise leave one behind for good).
    private var retiredConsumers: [String] = []
    /// Events a fold that keeps tables refused in a committed batch, still to be sent to the DLQ
    /// (it was unreachable); sent before the next pass folds anything.
    var unsentDeadLetters: [DeadLetter] = []

    package internal(set) var state: P.State
    package internal(set) var checkpoint: UInt64 = 0 {
        didSet {
            checkpointCell.store(checkpoint, ordering: .releasing)
            resumeWaiters()
        }
    }
    /// The checkpoint, readable without waiting for the actor, so that a reader can tell cheaply
    /// whether what it derived from the state is still current (the hot read paths).
    private nonisolated let checkpointCell = Atomic<UInt64>(0)
    package nonisolated var currentCheckpoint: UInt64 { checkpointCell.load(ordering: .acquiring) }
    package internal(set) var caughtUp = false { didSet { progressCell.withLock { $0.caughtUp = caughtUp } } }
    package internal(set) var lag: UInt64 = 0 { didSet { progressCell.withLock { $0.lag = lag } } }
    package private(set) var deadLettered = 0 { didSet { progressCell.withLock { $0.deadLettered = deadLettered } } }
    /// Whether the fold has loaded what it keeps and asked the log how far behind it is; until
    /// then `lag` says nothing (and a fold that keeps tables answers reads with "still opening").
    package private(set) var opened = false { didSet { progressCell.withLock { $0.opened = opened } } }
    /// Events folded from the value this process appended (`AppendedEvents`), not read back from
    /// their stored bytes.
    package internal(set) var foldedFromAppends = 0
    /// Lag, caught-up and dead letters, readable without waiting for the actor: `/ready` answers
    /// at once even while the fold works through a long batch or loads a snapshot.
    private nonisolated let progressCell = Mutex(Progress())
    struct Progress: Sendable {
        var caughtUp = false
        var lag: UInt64 = 0
        var deadLettered = 0
        var opened = false
    }
    private var savedCheckpoint: UInt64 = 0
    private var stall = Stall("projection")
    private var lastSave = ContinuousClock.now
    /// How long the last snapshot took to write. A big state waits `saveCostFactor` times that
    /// between snapshots, so writing them never takes more than a small share of the fold's time
    /// (the civics fold's whole-state JSON was 13 % of ingest's CPU under sync load when written
    /// every two seconds, and still 8 % at twenty times its cost). What is not in a snapshot yet
    /// is still in the log: a restart refolds it (at sixty times a 50 ms write, three seconds' worth).
    private var lastSaveCost = Duration.zero
    static var saveCostFactor: Int { 60 }
    /// Where the running loop's snapshots go to be written beside the fold (nil outside the loop:
    /// a rebuild writes its one snapshot itself), and whether one is being written.
    private var writer: AsyncStream<Snapshot<P.State>>.Continuation?
    private var writing = false
    private var reloadRequested = false
    /// Reloads done since start: `rebuildLive` waits for the next one.
    private var reloads = 0
    private var running = false
    /// Set while the consumer reads the whole log: the subjects this projection folds.
    var clientFilter: SubjectFilter?
    /// Callers of `waitUntilApplied`, resumed when the checkpoint reaches their sequence. Not
    /// actor state: a cancelled caller removes itself from a synchronous cancellation handler.
    private nonisolated let waiters = Mutex(AppliedWaiters<CheckedContinuation<Bool, Never>>())
    /// The open generation of a fold that keeps tables (nil for the others), shared with readers.
    nonisolated let database = Mutex<DatabasePool?>(nil)

    let lagGauge: Gauge
    let checkpointGauge: Gauge
    let appliedCounter: Counter
    private let dlqCounter: Counter

    /// - Parameter instance: names this process's consumer, so processes with their own data
    ///   folders (one per compose service) never move each other's cursor.
    package init(_ projection: P.Type, log: EventLog, store: SnapshotStore, instance: String, options: Options = .init(), logger: Logger) {
        self.init(projection, log: log, store: store, options: options, logger: logger,
                  consumerName: P.consumerName(instance: instance), savesWhileFolding: true,
                  retiredConsumers: (0..<P.version).map { "proj_\(P.name)_v\($0)_\(instance)" })
    }

    init(_ projection: P.Type, log: EventLog, store: SnapshotStore, options: Options, logger: Logger,
         consumerName: String, savesWhileFolding: Bool, retiredConsumers: [String] = []) {
        self.consumerName = consumerName
        self.retiredConsumers = retiredConsumers
        self.savesWhileFolding = savesWhileFolding
        self.log = log
        self.store = store
        self.options = options
        var logger = logger
        logger[metadataKey: "projection"] = "\(P.name)"
        self.logger = logger
        self.state = P.initialState
        let dimensions = [("projection", P.name)]
        lagGauge = Gauge(label: "muster_projection_lag", dimensions: dimensions)
        checkpointGauge = Gauge(label: "muster_projection_checkpoint", dimensions: dimensions)
        appliedCounter = Counter(label: "muster_projection_events_applied_total", dimensions: dimensions)
        dlqCounter = Counter(label: "muster_projection_dead_lettered_total", dimensions: dimensions)
    }

    /// Returns true once the fold has applied the event at `sequence` (at once if it has), false
    /// when `timeout` passes first or the caller is cancelled. No polling, and no task or timer
    /// of its own: the fold resumes the caller when its checkpoint moves past, or the
    /// connection's `Timeouts` when the time is up.
    package nonisolated func waitUntilApplied(_ sequence: UInt64, timeout: Duration) async -> Bool {
        if currentCheckpoint >= sequence { return true }
        let id = waiters.withLock { $0.reserveID() }
        let timeouts = log.jetStream.connection.timeouts
        var deadline: Timeouts.Token?
        let applied = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Bool? = waiters.withLock { waiters in
                    if currentCheckpoint >= sequence { return true }
                    if Task.isCancelled { return false }
                    waiters.add(continuation, id: id, sequence: sequence)
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                } else {
                    deadline = timeouts.schedule(after: timeout) { [self] in
                        waiters.withLock { $0.remove(id: id) }?.resume(returning: false)
                    }
                }
            }
        } onCancel: {
            waiters.withLock { $0.remove(id: id) }?.resume(returning: false)
        }
        if let deadline { timeouts.cancel(deadline) }
        return applied
    }

    /// Waits until the fold has applied everything in the log now (false after `timeout`): what a
    /// read of a thing the fold has not seen does before it answers "not found", since the thing
    /// may have been appended a moment ago, in this process or another.
    package nonisolated func catchUpWithLog(timeout: Duration) async throws -> Bool {
        let last = try await log.jetStream.streamInfo(log.configuration.eventsStream).state.lastSeq
        return await waitUntilApplied(last, timeout: timeout)
    }

    private func resumeWaiters() {
        let checkpoint = checkpoint
        let due = waiters.withLock { $0.isEmpty ? [] : $0.due(upTo: checkpoint) }
        for continuation in due { continuation.resume(returning: true) }
    }

    /// Reads the current state.
    package func read<T: Sendable>(_ body: (P.State) throws -> T) rethrows -> T { try body(state) }

    /// Reads the current state with the checkpoint it stands at (inside the fold's actor: nothing
    /// is copied, and a fold that changes the state afterwards copies nothing either).
    package func readWithCheckpoint<T: Sendable>(_ body: (UInt64, P.State) throws -> T) rethrows -> T { try body(checkpoint, state) }

    /// The state and the checkpoint it stands at, read together.
    package func current() -> (checkpoint: UInt64, state: P.State) { (checkpoint, state) }

    /// Asks the running loop to load the snapshot file again (after `muster replay`).
    package func requestReload() { reloadRequested = true }

    /// Whether the running fold has reloaded since `count` reloads and caught up again.
    func hasReloaded(since count: Int) -> Bool { reloads > count && caughtUp }
    var reloadCount: Int { reloads }

    private func loadSnapshot() async throws {
        defer {
            savedCheckpoint = checkpoint
            caughtUp = false
        }
        if let tables = P.tables {
            try loadTables(tables)
        } else if let snapshot = try await store.onBlockingPool({ try $0.load(P.State.self, name: P.name, version: P.version) }) {
            state = snapshot.state
            checkpoint = snapshot.checkpoint
            logger.info("snapshot loaded", metadata: ["checkpoint": "\(checkpoint)"])
        } else {
            state = P.initialState
            checkpoint = 0
        }
    }

    /// Writes the snapshot file if the state moved since the last one (a fold that keeps tables
    /// has committed every batch already). On NIO's blocking pool: the write ends with an fsync.
    func saveSnapshot() async throws {
        guard P.tables == nil, checkpoint != savedCheckpoint else { return }
        let start = ContinuousClock.now
        let snapshot = Snapshot(projection: P.name, version: P.version, checkpoint: checkpoint,
                                savedAt: Timestamp.string(Date()), state: state)
        try await store.onBlockingPool { try $0.save(snapshot) }
        savedCheckpoint = snapshot.checkpoint
        lastSave = .now
        lastSaveCost = lastSave - start
    }

    /// Writes the snapshot unless the last one was written too recently for its cost: in the
    /// running loop, hands a copy of the state (copy-on-write: nothing is copied until the fold
    /// changes it) to the writer beside the fold, so that the fold, and every request waiting on
    /// it, does not wait while megabytes are encoded (the field app's pushes stalled a second at a
    /// time on a 40 MB state).
    private func saveSnapshotIfCheap() async throws {
        guard ContinuousClock.now - lastSave >= lastSaveCost * Self.saveCostFactor else { return }
        guard let writer else { return try await saveSnapshot() }
        guard !writing, P.tables == nil, checkpoint != savedCheckpoint else { return }
        writing = true
        writer.yield(Snapshot(projection: P.name, version: P.version, checkpoint: checkpoint, savedAt: Timestamp.string(Date()), state: state))
    }

    /// The writer finished a snapshot (or failed to: the next one tries again).
    private func written(_ checkpoint: UInt64, cost: Duration, failure: (any Error)?) {
        writing = false
        lastSave = .now
        lastSaveCost = cost
        if let failure {
            logger.error("snapshot failed; the next one tries again", metadata: ["error": "\(failure)"])
        } else {
            savedCheckpoint = max(savedCheckpoint, checkpoint)
        }
    }

    /// Recreates the durable consumer so that it starts right after the checkpoint.
    ///
    /// A subject filter on the server costs nats-server about 15 µs a message on a log whose
    /// subjects name their aggregates (a pull reads 60k messages/s filtered against 240k/s
    /// unfiltered; 2.11 and 2.14 alike). So when the projection's events are at least a quarter of
    /// a long way still to read, the consumer reads everything and the runner skips the rest by
    /// subject (`clientFilter`); otherwise, and for the few events of a live tail, the server filters.
    func positionConsumer() async throws {
        clientFilter = nil
        let last = try await log.jetStream.streamInfo(log.configuration.eventsStream).state.lastSeq
        if checkpoint > last {
            // A rebuild got here from a saved state (past the horizon): it cannot be trusted, and
            // the running fold starts again by itself.
            guard savesWhileFolding else {
                throw SnapshotError(message: "\(P.name)'s saved state is at sequence \(checkpoint), past the log's end (\(last)): the log was restored from an earlier backup; the running service folds it again from sequence 1")
            }
            try await foldAgainFromTheStart(logEndsAt: last)
        }
        var info = try await createConsumer(filtered: true)
        let remaining = last > checkpoint ? last - checkpoint : 0
        if info.numPending >= Self.clientFilterMinimum, info.numPending * 4 >= remaining {
            info = try await createConsumer(filtered: false)
            clientFilter = SubjectFilter(P.filterSubjects)
        }
        lag = info.numPending
        caughtUp = info.numPending == 0
        lagGauge.record(Double(lag))
        opened = true
        stall.resumed(logger: logger)
    }

    /// The log ends before what this fold has folded: it was restored from an earlier backup, or
    /// deleted. The events past its end are gone, and new ones will take their sequence numbers:
    /// folding on from the checkpoint would skip them. The fold starts again from sequence 1 (in
    /// a new generation of its tables), and says so. Its old state is moved aside, not deleted (it
    /// may be all that is left of events nobody backed up), and never read again: a restart
    /// before the next save finds no snapshot to load once the log has grown past it.
    private func foldAgainFromTheStart(logEndsAt last: UInt64) async throws {
        closeDatabase()
        let label = "checkpoint-\(checkpoint)-log-ended-at-\(last)"
        let kept = try await store.onBlockingPool { try $0.setAside(name: P.name, version: P.version, label: label) }
        logger.warning("the log ends at sequence \(last), before this fold's checkpoint \(checkpoint) (restored from an earlier backup?): folding it again from sequence 1; the old state is kept in \(kept.path)")
        if let tables = P.tables {
            let file = try startGeneration(tables)
            try store.publishDatabase(file, name: P.name, version: P.version)
        }
        state = P.initialState
        checkpoint = 0
        savedCheckpoint = 0
    }

    /// Below this many events to read, a filter on the server costs less than creating a consumer twice.
    static var clientFilterMinimum: UInt64 { 10_000 }

    private func createConsumer(filtered: Bool) async throws -> ConsumerInfo {
        let js = log.jetStream
        try await js.deleteConsumer(stream: log.configuration.eventsStream, name: consumerName)
        var config = ConsumerConfig(durableName: consumerName)
        config.description = "projection \(P.name) v\(P.version)"
        config.ackPolicy = .none
        config.deliverPolicy = checkpoint == 0 ? .all : .byStartSequence
        config.optStartSeq = checkpoint == 0 ? nil : checkpoint + 1
        if filtered { config.filterSubjects = P.filterSubjects }
        config.numReplicas = log.configuration.replicas
        // A scratch consumer cleans itself up in 2 min; a running one pulls all the time, so a day
        // idle is a replica that is gone (a scaled container's `{hostname}` instance). Each start
        // makes its consumer anew from its checkpoint, so one removed meanwhile costs nothing.
        config.inactiveThreshold = savesWhileFolding ? 86_400_000_000_000 : 120_000_000_000
        return try await js.ensureConsumer(stream: log.configuration.eventsStream, config)
    }

    /// This runner's consumer, read in batches of `options.batch`; a fold that keeps tables
    /// commits once a batch, so while more is pending it gathers a whole one.
    nonisolated func batches() -> PullConsumer.AsyncIterator {
        PullConsumer(log.jetStream, stream: log.configuration.eventsStream, consumer: consumerName,
                     batch: options.batch, expires: max(options.pullExpiry, options.idleWait), idleAfter: options.idleWait,
                     gathersWhilePending: P.tables != nil).makeAsyncIterator()
    }

    /// Folds a delivered batch in stream order (a fold kept in memory; one that keeps tables goes
    /// through `prepare`, `commit` and `settle` in `foldBatches`).
    func handle(_ messages: [JetStreamMessage]) async throws {
        let readers = P.storedReaders
        for message in messages {
            let sequence = message.delivery.streamSequence
            if let event = appendedHere?.event(at: sequence, subject: message.subject, payload: message.payload) {
                try await handle(subject: message.subject, sequence: sequence, payload: message.payload,
                                 pending: message.delivery.pending, appended: event)
                continue
            }
            let validated = message.header(EventCatalog.validatedHeader)
            try await handle(subject: message.subject, sequence: sequence, payload: message.payload,
                             validated: validated, pending: message.delivery.pending,
                             reader: StoredReader.index(in: readers, stamp: validated).map { readers[$0] })
        }
    }

    /// Folds one delivered message (as `appended` when this process appended it, through `reader`
    /// when it can take the bytes, else decoded); poison goes to the DLQ.
    func handle(subject: String, sequence: UInt64, payload: Data, validated: String? = nil, pending: UInt64,
                reader: StoredReader<P>? = nil, appended: RecordedEvent? = nil) async throws {
        lag = pending
        defer {
            caughtUp = pending == 0
            lagGauge.record(Double(pending))
        }
        guard sequence > checkpoint else { return } // already folded in: re-delivery is harmless
        if clientFilter?.matches(subject) ?? true {
            do {
                // Read only once it is known to be folded (not a re-delivery, not filtered out).
                if let appended {
                    try EventTrace.span("fold \(P.name)", traceparent: appended.traceparent) { try P.apply(appended, to: &state) }
                    foldedFromAppends += 1
                } else if let reader, let read = reader.read(subject: subject, payload: payload) {
                    try EventTrace.span("fold \(P.name)", traceparent: read.traceparent) { try reader.apply(read.fact, sequence, &state, nil) }
                } else {
                    let event = try log.catalog.decode(subject: subject, sequence: sequence, payload: payload, validated: validated)
                    try EventTrace.span("fold \(P.name)", traceparent: event.traceparent) { try P.apply(event, to: &state) }
                }
                appliedCounter.increment()
            } catch {
                try await deadLetter(subject: subject, sequence: sequence, payload: payload, reason: "\(error)")
            }
        }
        checkpoint = sequence
        checkpointGauge.record(Double(sequence))
        if savesWhileFolding, checkpoint - savedCheckpoint >= UInt64(options.snapshotEveryEvents)
            || ContinuousClock.now - lastSave >= options.snapshotInterval {
            try await saveSnapshotIfCheap()
        }
    }

    /// Sends the events committed batches refused that have not reached the DLQ yet, oldest first.
    func sendDeadLetters() async throws {
        while let next = unsentDeadLetters.first {
            try await deadLetter(subject: next.subject, sequence: next.sequence, payload: next.payload, reason: next.reason)
            unsentDeadLetters.removeFirst()
        }
    }

    func deadLetter(subject: String, sequence: UInt64, payload: Data, reason: String) async throws {
        try await log.deadLetter(subject: subject, payload: payload, originSequence: sequence,
                                 consumer: "proj_\(P.name)_v\(P.version)", reason: reason)
        deadLettered += 1
        dlqCounter.increment()
        logger.warning("event sent to DLQ", metadata: ["sequence": "\(sequence)", "reason": "\(reason)"])
    }

    /// One pass: position the consumer and fold until reload, cancellation or an error.
    private func consume() async throws {
        for name in retiredConsumers where try await log.jetStream.deleteConsumer(stream: log.configuration.eventsStream, name: name) {
            logger.notice("removed the consumer of an earlier version", metadata: ["consumer": "\(name)"])
        }
        retiredConsumers = []
        try await sendDeadLetters()
        try await positionConsumer()
        try await foldBatches(idle: {
            caughtUp = true
            lag = 0
            lagGauge.record(0)
            if savesWhileFolding { try await saveSnapshotIfCheap() } // quiet now: make what was folded durable
            return reloadRequested ? .stop : .fold
        }, folded: { _, _ in reloadRequested ? .stop : .fold })
    }

    /// Runs until cancelled, retrying after errors (say NATS away) without losing what it holds;
    /// on the fold threads, never on the event loops HTTP is served on.
    package func runUntilCancelled() async {
        await onFoldThreads { await foldUntilCancelled() }
    }

    private func foldUntilCancelled() async {
        do { try await loadSnapshot() } catch {
            logger.error("cannot load snapshot; starting from sequence 1", metadata: ["error": "\(error)"])
        }
        // At most one snapshot waits: a newer state makes an older one pointless.
        let (snapshots, continuation) = AsyncStream.makeStream(of: Snapshot<P.State>.self, bufferingPolicy: .bufferingNewest(1))
        writer = continuation
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [store] in
                for await snapshot in snapshots {
                    let start = ContinuousClock.now
                    var failure: (any Error)?
                    // Encoding, writing and syncing a big state takes long and blocks: a thread
                    // of NIO's blocking pool, never one of the two or so that run every request.
                    do { try await NIOThreadPool.singleton.runIfActive { try store.save(snapshot) } } catch { failure = error }
                    await self.written(snapshot.checkpoint, cost: .now - start, failure: failure)
                }
            }
            await fold()
            continuation.finish()
            writer = nil
            await group.waitForAll() // the write under way ends before the final one starts (they share a temporary file)
        }
        do { try await saveSnapshot() } catch { logger.error("final snapshot failed", metadata: ["error": "\(error)"]) }
    }

    /// Folds until cancelled, retrying after errors (say NATS away) without losing what it holds.
    private func fold() async {
        while !Task.isCancelled {
            do {
                try await consume()
                if reloadRequested {
                    reloadRequested = false
                    // A write of the old state still under way would land over the rebuilt file.
                    while writing { try await Task.sleep(for: .milliseconds(20)) }
                    try await loadSnapshot()
                    reloads += 1
                    logger.info("reloaded from rebuilt snapshot", metadata: ["checkpoint": "\(checkpoint)"])
                }
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                stall.failed(error, logger: logger)
                if P.tables != nil {
                    do { try await resumeFromTables() } catch { logger.error("cannot read the fold's database", metadata: ["error": "\(error)"]) }
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}

extension ProjectionRunner: Service {
    /// Runs the fold until shutdown; a second `run()` of the same runner is refused (two loops
    /// would fold every event twice into one state).
    package func run() async throws {
        try claimRun()
        await cancelWhenGracefulShutdown { await self.runUntilCancelled() }
    }

    private func claimRun() throws {
        guard !running else { throw ProjectionRunError(projection: P.name) }
        running = true
    }
}

/// A runner was asked to run while it already runs.
package struct ProjectionRunError: Error, CustomStringConvertible {
    package let projection: String
    package var description: String { "projection \(projection) already runs in this process" }
}

/// What `/ready` and `/metrics` need from any projection, whatever its state type.
package protocol ProjectionStatus: Sendable {
    var projectionName: String { get }
    func status() async -> ProjectionStatusReport
    func requestReload() async
    /// Rebuilds the fold from the start of the log beside the running one (as `muster replay`
    /// does), then has the running one load the result; answers the checkpoint reached.
    func rebuildLive() async throws -> UInt64
}

package struct ProjectionStatusReport: Sendable, Codable {
    package var name: String
    package var version: Int
    package var checkpoint: UInt64
    package var lag: UInt64
    package var caughtUp: Bool
    package var deadLettered: Int
    /// False until the fold has loaded what it keeps and asked the log how far behind it is (until
    /// then `lag` is unknown): a process that just started is not ready while any fold is not open.
    package var opened: Bool
}

extension ProjectionRunner: ProjectionStatus {
    package nonisolated var projectionName: String { P.name }
    /// While the log is unreachable nobody can tell how far behind the projection is, so it is
    /// not reported as caught up (its last lag is kept for the operator).
    package nonisolated func status() -> ProjectionStatusReport {
        let progress = progressCell.withLock { $0 }
        return ProjectionStatusReport(name: P.name, version: P.version, checkpoint: currentCheckpoint, lag: progress.lag,
                                      caughtUp: progress.caughtUp && log.jetStream.connection.isConnected,
                                      deadLettered: progress.deadLettered, opened: progress.opened)
    }
}
