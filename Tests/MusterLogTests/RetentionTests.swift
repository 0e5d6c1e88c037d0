import Foundation
import GRDB
import Logging
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting
import Synchronization
import Testing

/// A kind of event the log keeps for a second (as analytics are kept for 400 days).
struct VisitRecorded: EventPayload {
    static let eventType = EventType(app: "ledger", aggregate: "visit", event: "recorded", major: 1)
    static let retention = EventRetention.keptFor(.seconds(3)) // long enough for a loaded machine to fold them first
    var visitId: String
    var aggregateID: String { visitId }
}

/// Visits counted in memory (a snapshot file).
enum VisitCount: Projection {
    struct State: Codable, Sendable, Equatable { var visits = 0 }
    static let name = "visitcount"
    static let version = 1
    static let filterSubjects = ["events.ledger.visit.>"]
    static let initialState = State()
    static func apply(_ event: RecordedEvent, to state: inout State) throws {
        if event.payload is VisitRecorded { state.visits += 1 }
    }
}

/// Visits kept in a table (as the analytics folds keep theirs).
enum VisitTable: TableProjection {
    struct State: Codable, Sendable, Equatable { var visits = 0 }
    static let name = "visittable"
    static let version = 1
    static let filterSubjects = ["events.ledger.visit.>"]
    static let initialState = State()
    static let storage = ProjectionTables<Self> { db in
        try db.execute(sql: "CREATE TABLE visits (id TEXT NOT NULL)")
    } apply: { event, state, db in
        guard let visit = event.payload as? VisitRecorded else { return }
        try db.execute(sql: "INSERT INTO visits VALUES (?)", arguments: [visit.visitId])
        state.visits += 1
    }
}

/// Accounts only: reads nothing that expires.
enum AccountCount: Projection {
    struct State: Codable, Sendable, Equatable { var accounts = 0 }
    static let name = "accountcount"
    static let version = 1
    static let filterSubjects = ["events.ledger.account.>"]
    static let initialState = State()
    static func apply(_ event: RecordedEvent, to state: inout State) throws {
        if event.payload is AccountOpened { state.accounts += 1 }
    }
}

/// Bounded growth: an event kept for a time carries its TTL, the server removes it when that has
/// passed, the folds keep what they folded from it, and a rebuild that cannot reach back past the
/// log's horizon starts from the saved state and says so.
@Suite("Events kept for a time: TTL, horizon, rebuilds from the saved state", .serialized)
struct RetentionTests {
    @Test func expiredEventsLiveOnInTheFoldsAndARebuildStartsFromTheSavedState() async throws {
        try await withNATS { connection, server in
            var logger = Logger(label: "test")
            logger.logLevel = .error
            var catalog = EventCatalog.ledger
            catalog.register(VisitRecorded.self)
            let log = EventLog(jetStream: JetStream(connection), catalog: catalog, source: "test")
            try await log.bootstrap()
            let store = SnapshotStore(directory: server.directory.appendingPathComponent("projections"))
            #expect(try await log.jetStream.streamInfo("EVENTS").config.allowMsgTtl)
            #expect(catalog.expiringTypes == [VisitRecorded.eventType])

            _ = try await log.append(AccountOpened.random())
            var last: UInt64 = 0
            for index in 0 ..< 5 { last = try await log.append(VisitRecorded(visitId: "v\(index)")).sequence }
            let stored = try await log.jetStream.getMessage(stream: "EVENTS", sequence: last)
            #expect(stored.headers["Nats-TTL"] == "3s", "a kept-for event carries its TTL")
            let forever = try await log.jetStream.getMessage(stream: "EVENTS", sequence: 1)
            #expect(forever.headers["Nats-TTL"] == nil, "an event kept forever carries none")
            #expect(try await log.horizon(for: VisitCount.filterSubjects) == nil, "nothing expired yet")

            // The live folds take the visits and save them.
            let counted = ProjectionRunner(VisitCount.self, log: log, store: store, instance: "test", logger: logger)
            let tabled = ProjectionRunner(VisitTable.self, log: log, store: store, instance: "test", logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await counted.runUntilCancelled() }
                group.addTask { await tabled.runUntilCancelled() }
                try await eventually("folded") { let (a, b) = (await counted.checkpoint, await tabled.checkpoint); return a == last && b == last }
                group.cancelAll()
            }
            #expect(try store.load(VisitCount.State.self, name: VisitCount.name, version: 1)?.state.visits == 5)

            // They expire; the account stays.
            try await eventually("the visits expired", timeout: .seconds(15)) {
                try await log.jetStream.streamInfo("EVENTS").state.messages == 1
            }
            let horizon = try #require(try await log.horizon(for: VisitCount.filterSubjects))
            #expect(try await log.horizon(for: AccountCount.filterSubjects) == nil, "a fold that reads nothing expiring still reaches back")

            // A rebuild starts from the saved state, says so, and keeps the visits.
            let starts = StartSeen()
            let rebuilt = try await ProjectionRunner<VisitCount>.rebuild(log: log, store: store, logger: logger) { starts.seen($0.start) }
            #expect(rebuilt.state.visits == 5)
            #expect(starts.last == .savedState(checkpoint: last, horizon: horizon), "\(String(describing: starts.last))")
            #expect(starts.last?.note?.contains("expired") == true)
            let table = try await ProjectionRunner<VisitTable>.rebuild(log: log, store: store, logger: logger) { starts.seen($0.start) }
            #expect(table.state.visits == 5)
            let file = try #require(store.currentDatabase(name: VisitTable.name, version: 1))
            let rows = try await DatabaseQueue(path: file.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM visits") }
            #expect(rows == 5, "the rebuilt tables keep the expired visits' rows")

            // New visits after the horizon fold on top of the saved state.
            _ = try await log.append(VisitRecorded(visitId: "v5"))
            let again = try await ProjectionRunner<VisitCount>.rebuild(log: log, store: store, logger: logger) { starts.seen($0.start) }
            #expect(again.state.visits == 6)

            // Without a saved state, the rebuild says it holds only what the log has.
            try FileManager.default.removeItem(at: store.url(name: VisitCount.name, version: 1))
            let bare = try await ProjectionRunner<VisitCount>.rebuild(log: log, store: store, logger: logger) { starts.seen($0.start) }
            #expect(starts.last == .horizon(horizon) && bare.state.visits < 6)
            let accounts = try await ProjectionRunner<AccountCount>.rebuild(log: log, store: store, logger: logger) { starts.seen($0.start) }
            #expect(starts.last == .beginning && accounts.state.accounts == 1)
        }
    }
}

/// The last `RebuildStart` a rebuild reported.
final class StartSeen: Sendable {
    private let value = Mutex<RebuildStart?>(nil)
    func seen(_ start: RebuildStart) { value.withLock { $0 = start } }
    var last: RebuildStart? { value.withLock { $0 } }
}
