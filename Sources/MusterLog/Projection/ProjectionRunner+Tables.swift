import Foundation
package import GRDB
import Logging
import Metrics
import MusterEvents
import MusterJSON
import MusterNATS
import Synchronization
import Tracing

/// A fold that keeps tables (`ProjectionTables`): each batch is one transaction.
extension ProjectionRunner {
    /// Opens the current generation (a new one on the first start) and takes the state and
    /// checkpoint it holds; older generations are removed once the new one is open.
    func loadTables(_ tables: ProjectionTables<P>) throws {
        let current = store.currentDatabase(name: P.name, version: P.version)
        let file = try current ?? store.newDatabase(name: P.name, version: P.version)
        let pool = try openGeneration(file, tables)
        if current == nil { try store.publishDatabase(file, name: P.name, version: P.version) }
        let saved = try pool.read { db in try FoldRow.load(P.State.self, from: db) }
        useDatabase(pool)
        store.removeDatabases(olderThan: file, name: P.name, version: P.version)
        state = saved?.state ?? P.initialState
        checkpoint = saved?.checkpoint ?? 0
        logger.info("tables opened", metadata: ["database": "\(file.lastPathComponent)", "checkpoint": "\(checkpoint)"])
    }

    /// Starts a new, unpublished generation for a rebuild.
    /// With `copyingCurrent`, the new generation starts as a copy of the current one (SQLite's
    /// online backup, while the live fold may write it) and the rebuild continues from the state
    /// and checkpoint it holds.
    func startGeneration(_ tables: ProjectionTables<P>, copyingCurrent: Bool = false) throws -> URL {
        let file = try store.newDatabase(name: P.name, version: P.version)
        if copyingCurrent, let current = store.currentDatabase(name: P.name, version: P.version) {
            var readOnly = Configuration()
            readOnly.readonly = true
            let source = try DatabaseQueue(path: current.path, configuration: readOnly)
            let copy = try DatabaseQueue(path: file.path)
            try source.backup(to: copy)
            try source.close()
            try copy.close()
        }
        let pool = try openGeneration(file, tables)
        if copyingCurrent, let saved = try pool.read({ db in try FoldRow.load(P.State.self, from: db) }) {
            state = saved.state
            checkpoint = saved.checkpoint
        }
        useDatabase(pool)
        return file
    }

    /// Opens a generation, creating the fold row and the projection's tables in a new file.
    func openGeneration(_ file: URL, _ tables: ProjectionTables<P>) throws -> DatabasePool {
        let pool = try store.openDatabase(file)
        try pool.write { db in
            guard try !db.tableExists(FoldRow.table) else { return }
            try FoldRow.create(in: db)
            try tables.create(db)
        }
        return pool
    }

    /// Serves reads from `pool` from now on; the previous one is closed (a read still running on
    /// it fails with a `DatabaseError`, which the read routes answer with a 503).
    func useDatabase(_ pool: DatabasePool) {
        let previous = database.withLock { current in
            defer { current = pool }
            return current
        }
        if let previous, previous !== pool { try? previous.close() }
    }

    func closeDatabase() {
        guard let pool = database.withLock({ current in
            defer { current = nil }
            return current
        }) else { return }
        try? pool.close()
    }

    /// Reads the fold's tables as committed; nil before the fold has opened them.
    package nonisolated func readTables<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T? {
        guard let pool = database.withLock({ $0 }) else { return nil }
        return try await pool.read(body)
    }

    /// Decodes the events of a batch past `sequence` (what is committed or on its way), nil when
    /// there is nothing past it. Events that do not decode go to the DLQ once the batch is committed.
    func prepare(_ messages: [JetStreamMessage], after sequence: UInt64) throws -> TableBatch? {
        guard let last = messages.last, last.delivery.streamSequence > sequence else { return nil }
        guard let pool = database.withLock({ $0 }) else { throw SnapshotError(message: "the \(P.name) database is not open") }
        var batch = TableBatch(pool: pool, messages: messages, sequence: last.delivery.streamSequence, pending: last.delivery.pending)
        batch.items.reserveCapacity(messages.count)
        let readers = P.tables?.stored ?? []
        let appendedHere = appendedHere
        for message in messages where message.delivery.streamSequence > sequence && clientFilter?.matches(message.subject) ?? true {
            if let event = appendedHere?.event(at: message.delivery.streamSequence, subject: message.subject, payload: message.payload) {
                if let span = EventTrace.start("fold \(P.name)", traceparent: event.traceparent) { batch.spans.append(span) }
                batch.items.append(.event(event))
                batch.fromAppends += 1
                continue
            }
            let validated = message.header(EventCatalog.validatedHeader)
            if let index = StoredReader.index(in: readers, stamp: validated),
               let item = Self.read(message, with: readers[index], index: index, into: &batch) {
                batch.items.append(item)
                continue
            }
            do {
                let event = try log.catalog.decode(subject: message.subject, sequence: message.delivery.streamSequence, payload: message.payload,
                                                   validated: validated)
                if let span = EventTrace.start("fold \(P.name)", traceparent: event.traceparent) { batch.spans.append(span) }
                batch.items.append(.event(event))
            } catch {
                batch.refused[message.delivery.streamSequence] = "\(error)"
            }
        }
        return batch
    }

    /// A stamped event of the reader's type read by hand (`StoredReader`); nil sends it the
    /// decoder's way.
    static func read(_ message: JetStreamMessage, with reader: StoredReader<P>, index: Int, into batch: inout TableBatch) -> TableItem? {
        guard let read = reader.read(message) else { return nil }
        if let span = EventTrace.start("fold \(P.name)", traceparent: read.traceparent) { batch.spans.append(span) }
        return .stored(sequence: message.delivery.streamSequence, reader: index, fact: read.fact)
    }

    /// Hands a prepared batch to the database's queue at once: it is applied to `start` and the
    /// tables in one transaction there while this loop goes on; `PendingCommit` brings the result.
    static func commit(_ batch: TableBatch, from start: P.State, _ tables: ProjectionTables<P>) -> PendingCommit<Folded> {
        let pending = PendingCommit<Folded>()
        batch.pool.asyncWriteWithoutTransaction { db in
            pending.complete(Result { try fold(batch, from: start, tables, db) })
        }
        return pending
    }

    typealias Folded = (state: P.State, rejected: [UInt64: String])

    static func fold(_ batch: TableBatch, from start: P.State, _ tables: ProjectionTables<P>, _ db: Database) throws -> Folded {
        let (items, sequence, name, version) = (batch.items, batch.sequence, P.name, P.version)
        func apply(_ item: TableItem, _ state: inout P.State) throws {
            switch item {
            case .event(let event): try tables.apply(event, &state, db)
            case .stored(let sequence, let reader, let fact): try tables.stored[reader].apply(fact, sequence, &state, db)
            }
        }
        // What ends the batch's transaction, whichever way its events went in: the once-a-batch
        // work, then the state and checkpoint.
        func finish(_ state: inout P.State) throws {
            try tables.endBatch(&state, db)
            try FoldRow.save(state, checkpoint: sequence, projection: name, version: version, in: db)
        }
        // Most batches hold no poison: fold them without a savepoint per event (a savepoint cost
        // twice the insert it guarded). When an event is refused the whole transaction rolls back
        // and the batch is folded again, one savepoint per event, so only that event is left out.
        do {
            var state = start
            try db.inTransaction {
                for item in items { try apply(item, &state) }
                try finish(&state)
                return .commit
            }
            return (state, [:])
        } catch let error as DatabaseError {
            throw error // nothing was committed; the runner reads the batch again after a pause
        } catch {
            var state = start
            var rejected: [UInt64: String] = [:]
            try db.inTransaction {
                for item in items {
                    do {
                        try db.inSavepoint {
                            try apply(item, &state)
                            return .commit
                        }
                    } catch let error as DatabaseError {
                        throw error
                    } catch {
                        rejected[item.sequence] = "\(error)"
                    }
                }
                try finish(&state)
                return .commit
            }
            return (state, rejected)
        }
    }

    /// Takes a committed batch's state, checkpoint and lag, then sends what it refused to the DLQ.
    /// The batch is committed whatever happens to the sending: what could not be sent waits in
    /// `unsentDeadLetters` for the next try, and the fold never reads the batch again.
    func settle(_ batch: TableBatch, folded: P.State, rejected: [UInt64: String]) async throws {
        for span in batch.spans { span.end() } // the traced events of the batch are in the tables
        state = folded
        appliedCounter.increment(by: Int64(batch.items.count - rejected.count))
        foldedFromAppends += batch.fromAppends
        checkpoint = batch.sequence
        checkpointGauge.record(Double(batch.sequence))
        lag = batch.pending
        caughtUp = batch.pending == 0
        lagGauge.record(Double(batch.pending))
        let refused = batch.refused.merging(rejected) { first, _ in first }
        if !refused.isEmpty {
            for message in batch.messages {
                guard let reason = refused[message.delivery.streamSequence] else { continue }
                unsentDeadLetters.append(DeadLetter(subject: message.subject, sequence: message.delivery.streamSequence,
                                                    payload: message.payload, reason: reason))
            }
            try await sendDeadLetters()
        }
    }

    /// After a failed pass, takes the state and checkpoint back from the database: a batch may
    /// have committed while the pass failed around it (its result was then never settled).
    func resumeFromTables() async throws {
        // GRDB's async read: on its own reader queue, not on the thread that runs the fold.
        guard let pool = database.withLock({ $0 }),
              let saved = try await pool.read({ db in try FoldRow.load(P.State.self, from: db) }),
              saved.checkpoint != checkpoint else { return }
        logger.notice("resumed from the database", metadata: ["checkpoint": "\(saved.checkpoint)", "was": "\(checkpoint)"])
        state = saved.state
        checkpoint = saved.checkpoint
    }
}

/// An event a committed batch refused, on its way to the DLQ.
struct DeadLetter: Sendable {
    let subject: String
    let sequence: UInt64
    let payload: Data
    let reason: String
}

/// The result of a batch's transaction on the database's queue, for the fold loop to await.
final class PendingCommit<Value: Sendable>: Sendable {
    private enum Slot {
        case running
        case awaited(CheckedContinuation<Value, any Error>)
        case done(Result<Value, any Error>)
    }

    private let slot = Mutex(Slot.running)

    /// Called once, on the database's queue.
    func complete(_ result: Result<Value, any Error>) {
        let waiter = slot.withLock { slot -> CheckedContinuation<Value, any Error>? in
            defer { slot = .done(result) }
            if case .awaited(let waiter) = slot { return waiter }
            return nil
        }
        waiter?.resume(with: result)
    }

    /// The result, once the transaction has ended (called once).
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = slot.withLock { slot -> Result<Value, any Error>? in
                if case .done(let result) = slot { return result }
                slot = .awaited(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// A batch decoded for a fold that keeps tables, on its way to its transaction.
struct TableBatch: Sendable {
    let pool: DatabasePool
    let messages: [JetStreamMessage]
    /// The last stream sequence of the batch: the checkpoint once it is committed.
    let sequence: UInt64
    let pending: UInt64
    var items: [TableItem] = []
    /// A span for each event of the batch that carries a trace, ended once the batch is committed.
    var spans: [any Span] = []
    /// Events that did not decode, with the reason.
    var refused: [UInt64: String] = [:]
    /// How many of `items` are events this process appended, taken as appended (counted once committed).
    var fromAppends = 0

    init(pool: DatabasePool, messages: [JetStreamMessage], sequence: UInt64, pending: UInt64) {
        self.pool = pool
        self.messages = messages
        self.sequence = sequence
        self.pending = pending
    }
}

/// One event of a batch for a fold that keeps tables: decoded whole, or read by the fold's
/// `StoredReader`.
enum TableItem: Sendable {
    case event(RecordedEvent)
    /// `reader`: which of the fold's `stored` readers read it.
    case stored(sequence: UInt64, reader: Int, fact: any Sendable)

    var sequence: UInt64 {
        switch self {
        case .event(let event): event.sequence
        case .stored(let sequence, _, _): sequence
        }
    }
}

/// The one row of a stored fold that holds its small state and checkpoint, rewritten in every
/// batch's transaction.
enum FoldRow {
    static let table = "muster_fold"

    static func create(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE muster_fold (
              id INTEGER PRIMARY KEY CHECK (id = 1),
              projection TEXT NOT NULL,
              version INTEGER NOT NULL,
              checkpoint INTEGER NOT NULL,
              saved_at TEXT NOT NULL,
              state BLOB NOT NULL)
            """)
    }

    static func save<State: Encodable>(_ state: State, checkpoint: UInt64, projection: String, version: Int, in db: Database) throws {
        let bytes = try JSONBytesEncoder().encodeData(state)
        try db.execute(sql: """
            INSERT INTO muster_fold (id, projection, version, checkpoint, saved_at, state) VALUES (1, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET checkpoint = excluded.checkpoint, saved_at = excluded.saved_at, state = excluded.state
            """, arguments: [projection, version, Int64(clamping: checkpoint), Timestamp.string(Date()), bytes])
    }

    static func load<State: Decodable>(_ type: State.Type, from db: Database) throws -> (state: State, checkpoint: UInt64)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT checkpoint, state FROM muster_fold WHERE id = 1") else { return nil }
        let checkpoint: Int64 = row["checkpoint"]
        let bytes: Data = row["state"]
        return (try JSONBytesDecoder().decode(State.self, from: bytes), UInt64(max(0, checkpoint)))
    }
}
