import Foundation
import GRDB
import Logging
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting
import Testing

/// Credits by account in a table; the state in memory only counts them. A negative credit is
/// refused after its row was written, to show the row goes with it.
enum CreditTable: TableProjection {
    struct State: Codable, Sendable, Equatable { var credits = 0 }
    static let name = "credits"
    static let version = 1
    static let filterSubjects = ["events.ledger.>"]
    static let initialState = State()
    static let storage = ProjectionTables<Self> { db in
        try db.execute(sql: "CREATE TABLE credits (account TEXT NOT NULL, amount INTEGER NOT NULL)")
    } apply: { event, state, db in
        guard let credit = event.payload as? AccountCredited else { return }
        try db.execute(sql: "INSERT INTO credits VALUES (?, ?)", arguments: [credit.accountId, credit.amount])
        guard credit.amount >= 0 else { throw ProjectionRejection("a credit cannot be negative") }
        state.credits += 1
    }

    static func rows(_ db: Database) throws -> [String: Int] {
        Dictionary(try Row.fetchAll(db, sql: "SELECT account, SUM(amount) AS total FROM credits GROUP BY account")
            .map { ($0["account"], $0["total"]) }, uniquingKeysWith: +)
    }
}

@Suite("Projections kept in SQLite: one transaction per batch, generations on rebuild")
struct StoredProjectionTests {
    func runner(_ env: LedgerLog) -> ProjectionRunner<CreditTable> {
        ProjectionRunner(CreditTable.self, log: env.log, store: env.snapshots, instance: "test", logger: env.logger)
    }

    @Test func aBatchCommitsRowsStateAndCheckpointTogetherAndRefusedEventsLeaveNoRow() async throws {
        try await withLedgerLog { env in
            let account = AccountOpened.random()
            try await env.log.append(account)
            for amount in [10, -5, 7] { try await env.log.append(AccountCredited(accountId: account.accountId, amount: amount)) }
            _ = try await env.log.jetStream.publish(OutgoingMessage(
                subject: "events.ledger.account.acc_bad.credited.v1", payload: Data("not json".utf8)))
            let last = try await env.log.append(AccountCredited(accountId: account.accountId, amount: 1))
            let first = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await first.runUntilCancelled() }
                // The checkpoint moves when the batch commits; its refused events reach the DLQ right after.
                try await eventually("folded") {
                    let (checkpoint, deadLettered) = (await first.checkpoint, await first.deadLettered)
                    return checkpoint == last.sequence && deadLettered == 2
                }
                #expect(await first.state.credits == 3)
                #expect(try await first.readTables(CreditTable.rows) == [account.accountId: 18])
                group.cancelAll()
            }
            // A new runner (a restart) finds state, rows and checkpoint as committed, and reads no event twice.
            let link = env.snapshots.databaseLink(name: "credits", version: 1)
            #expect(env.snapshots.currentDatabase(name: "credits", version: 1) != nil)
            #expect(FileManager.default.fileExists(atPath: link.path))
            try await env.log.append(AccountCredited(accountId: account.accountId, amount: 100))
            let second = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await second.runUntilCancelled() }
                try await eventually("caught up again") { await second.checkpoint == last.sequence + 1 }
                #expect(await second.state.credits == 4)
                #expect(try await second.readTables(CreditTable.rows) == [account.accountId: 118])
                #expect(await second.deadLettered == 0)
                group.cancelAll()
            }
        }
    }

    /// A batch commits, then sending its refused event to the DLQ fails (the DLQ stream is gone):
    /// the pass fails after its transaction. The fold must go on from what was committed — not
    /// fold the batch a second time — and the refused event still reaches the DLQ once it is back.
    @Test func aBatchCommittedBeforeItsPassFailedIsNotFoldedAgain() async throws {
        try await withLedgerLog { env in
            let account = AccountOpened.random()
            try await env.log.append(account)
            for amount in [10, -5, 7] { try await env.log.append(AccountCredited(accountId: account.accountId, amount: amount)) }
            try await env.log.jetStream.deleteStream(env.log.configuration.dlqStream)
            let live = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await live.runUntilCancelled() }
                try await eventually("the batch committed") {
                    try await live.readTables { db in try Int.fetchOne(db, sql: "SELECT checkpoint FROM muster_fold") } == 4
                }
                try await Task.sleep(for: .milliseconds(2500)) // the failed pass is retried every second
                try await env.log.bootstrap() // the DLQ stream is back
                try await eventually("dead-lettered") { await live.deadLettered == 1 }
                #expect(await live.checkpoint == 4)
                #expect(await live.state.credits == 2)
                #expect(try await live.readTables(CreditTable.rows) == [account.accountId: 17])
                group.cancelAll()
            }
            let info = try await env.log.jetStream.streamInfo(env.log.configuration.dlqStream)
            #expect(info.state.messages == 1)
        }
    }

    @Test func aRebuildFillsANewGenerationThatTheLiveFoldReloadsAndTheOldOneIsRemoved() async throws {
        try await withLedgerLog { env in
            let accounts = (0..<50).map { _ in AccountOpened.random() }
            _ = try await env.log.appendAll(accounts)
            _ = try await env.log.appendAll(accounts.map { AccountCredited(accountId: $0.accountId, amount: 3) })
            let live = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await live.runUntilCancelled() }
                try await eventually("live caught up") { await live.checkpoint == 100 }
                let before = try #require(env.snapshots.currentDatabase(name: "credits", version: 1))
                let rebuilt = try await ProjectionRunner<CreditTable>.rebuild(log: env.log, store: env.snapshots, logger: env.logger) { _ in }
                #expect(rebuilt.checkpoint == 100 && rebuilt.state.credits == 50)
                let after = try #require(env.snapshots.currentDatabase(name: "credits", version: 1))
                #expect(after != before)
                // Until told, the live fold reads its own generation; then it moves to the new one.
                #expect(try await live.readTables(CreditTable.rows)?.count == 50)
                await live.requestReload()
                try await env.log.append(AccountCredited(accountId: accounts[0].accountId, amount: 1))
                try await eventually("reloaded and folding") { await live.checkpoint == 101 }
                #expect(try await live.readTables(CreditTable.rows)?[accounts[0].accountId] == 4)
                #expect(!FileManager.default.fileExists(atPath: before.path))
                #expect(FileManager.default.fileExists(atPath: after.path))
                group.cancelAll()
            }
        }
    }
}

/// The log restored from an earlier backup (or deleted and begun again) ends before a fold's
/// checkpoint: the fold starts again from sequence 1 instead of skipping the new events that
/// take the old sequence numbers.
@Suite("A log that ends before a fold's checkpoint", .serialized)
struct LogBehindFoldTests {
    @Test func aFoldWhoseLogWasRestoredToAnEarlierPointFoldsItAgain() async throws {
        try await withLedgerLog { env in
            let account = AccountOpened.random()
            try await env.log.append(account)
            var last: UInt64 = 0
            for amount in 1 ... 9 { last = try await env.log.append(AccountCredited(accountId: account.accountId, amount: amount)).sequence }
            let balances = env.runner()
            let credits = ProjectionRunner(CreditTable.self, log: env.log, store: env.snapshots, instance: "test", logger: env.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await balances.runUntilCancelled() }
                group.addTask { await credits.runUntilCancelled() }
                try await eventually("folded") { let (a, b) = (await balances.checkpoint, await credits.checkpoint); return a == last && b == last }
                group.cancelAll()
            }
            // The stream begins again (an earlier backup restored; here: deleted and recreated)
            // with fewer events than the folds have seen.
            try await env.log.jetStream.deleteStream("EVENTS")
            try await env.log.bootstrap()
            let other = AccountOpened.random()
            try await env.log.append(other)
            let end = try await env.log.append(AccountCredited(accountId: other.accountId, amount: 100)).sequence
            #expect(end < last)
            let again = env.runner()
            let creditsAgain = ProjectionRunner(CreditTable.self, log: env.log, store: env.snapshots, instance: "test", logger: env.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await again.runUntilCancelled() }
                group.addTask { await creditsAgain.runUntilCancelled() }
                try await eventually("folded the restored log") { let (a, b) = (await again.checkpoint, await creditsAgain.checkpoint); return a == end && b == end }
                #expect(await again.state.balances == [other.accountId: 100], "only what the log holds now")
                #expect(try await creditsAgain.readTables(CreditTable.rows) == [other.accountId: 100])
                group.cancelAll()
            }
            // The old states are kept aside, not deleted: they may be all that is left of what nobody backed up.
            let aside = env.snapshots.directory.appendingPathComponent("set-aside")
            let kept = try FileManager.default.contentsOfDirectory(atPath: aside.path).sorted()
            #expect(kept.count == 2 && kept.allSatisfy { $0.contains("checkpoint-\(last)-log-ended-at-") }, "\(kept)")
            let oldBalances = try #require(kept.first { $0.hasPrefix("balances") })
            let saved = try JSONDecoder().decode(Snapshot<Balances.State>.self, from: Data(contentsOf: aside.appendingPathComponent(oldBalances)
                .appendingPathComponent(env.snapshots.url(name: "balances", version: 1).lastPathComponent)))
            #expect(saved.checkpoint == last && saved.state.balances == [account.accountId: 45])
        }
    }
}
