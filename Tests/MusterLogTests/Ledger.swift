import Foundation
import Logging
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting

/// The log engine's own test domain, so its tests fold no app's events: accounts that open and
/// take deposits, and a fold of their balances.
struct AccountOpened: EventPayload {
    static let eventType = EventType(app: "ledger", aggregate: "account", event: "opened", major: 1)
    var accountId: String
    var owner: String
    var note = ""
    var aggregateID: String { accountId }

    func validate() throws {
        try Validate.length(accountId, 5...40, field: "/accountId")
        guard accountId.hasPrefix("acc_") else { throw EventValidationError(field: "/accountId", "must start with acc_") }
        try Validate.length(owner, 1...100, field: "/owner")
        try Validate.length(note, 0...1_000_000, field: "/note")
    }

    static func random(note: String = "") -> AccountOpened {
        AccountOpened(accountId: "acc_\(UInt64.random(in: 0...UInt64.max))", owner: "Ada", note: note)
    }
}

/// Strings and an integer: a live fold in the process that appended it takes the value appended.
struct AccountCredited: EventPayload, StoredExactly {
    static let eventType = EventType(app: "ledger", aggregate: "account", event: "credited", major: 1)
    var accountId: String
    var amount: Int
    var aggregateID: String { accountId }
}

/// Balances by account.
enum Balances: Projection {
    struct State: Codable, Sendable, Equatable { var balances: [String: Int] = [:] }
    static let name = "balances"
    static let version = 1
    static let filterSubjects = ["events.ledger.>"]
    static let initialState = State()

    static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let opened as AccountOpened: state.balances[opened.accountId] = 0
        case let credited as AccountCredited: state.balances[credited.accountId, default: 0] += credited.amount
        default: break
        }
    }
}

extension EventCatalog {
    static var ledger: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(AccountOpened.self)
        catalog.register(AccountCredited.self)
        return catalog
    }
}

/// A fresh nats-server, the log on it with the ledger's events, and a snapshot folder.
struct LedgerLog {
    let log: EventLog
    let snapshots: SnapshotStore
    let logger: Logger

    func runner() -> ProjectionRunner<Balances> {
        ProjectionRunner(Balances.self, log: log, store: snapshots, instance: "test", logger: logger)
    }
}

func withLedgerLog(_ body: (LedgerLog) async throws -> Void) async throws {
    try await withNATS { connection, server in
        var logger = Logger(label: "test")
        logger.logLevel = .error
        let log = EventLog(jetStream: JetStream(connection), catalog: .ledger, source: "test")
        try await log.bootstrap()
        try await body(LedgerLog(log: log, snapshots: SnapshotStore(directory: server.directory.appendingPathComponent("projections")),
                                 logger: logger))
    }
}
