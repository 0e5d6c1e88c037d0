import Foundation
import Logging
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting
import Synchronization
import Testing

@Suite("Projection engine: DLQ, restart, rebuild")
struct ProjectionEngineTests {
    @Test func malformedRawEventGoesToDLQAndTheProjectionCarriesOn() async throws {
        try await withLedgerLog { env in
            let balances = env.runner()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await balances.runUntilCancelled() }
                let a = AccountOpened.random()
                try await env.log.append(a)
                // A script publishes garbage straight onto the log's subjects.
                let raw = try await env.log.jetStream.publish(OutgoingMessage(
                    subject: "events.ledger.account.acc_bad.opened.v1", payload: Data(#"{"hello":"world"}"#.utf8)))
                _ = try await env.log.jetStream.publish(OutgoingMessage(
                    subject: "events.ledger.account.acc_bad.credited.v1", payload: Data("\u{0}\u{1}binary".utf8)))
                let b = AccountOpened.random()
                let last = try await env.log.append(b)
                try await eventually("projection past the poison") { await balances.checkpoint == last.sequence }
                let state = await balances.state
                #expect(state.balances[a.accountId] != nil && state.balances[b.accountId] != nil && state.balances.count == 2)
                #expect(await balances.deadLettered == 2)
                let dlq = try await env.log.jetStream.getMessage(stream: "DLQ", sequence: 1)
                #expect(dlq.headers[DeadLetterHeader.originSequence] == String(raw.seq))
                #expect(dlq.headers[DeadLetterHeader.reason]?.contains("invalid event") == true)
                #expect(dlq.payload == Data(#"{"hello":"world"}"#.utf8))
                group.cancelAll()
            }
        }
    }

    @Test func restartResumesFromTheSnapshot() async throws {
        try await withLedgerLog { env in
            let events = (0..<300).map { _ in AccountOpened.random() }
            _ = try await env.log.appendAll(events)
            let first = env.runner()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await first.runUntilCancelled() }
                try await eventually("first run caught up") { await first.checkpoint == 300 }
                group.cancelAll()
            }
            let saved = try #require(try env.snapshots.load(Balances.State.self, name: "balances", version: 1))
            #expect(saved.checkpoint == 300 && saved.state.balances.count == 300)
            // More events while it was down; the next run starts from the snapshot and catches up.
            _ = try await env.log.appendAll((0..<50).map { _ in AccountOpened.random() })
            let second = env.runner()
            // Until it has loaded the snapshot and asked the log, its lag is unknown: not opened (`/ready` waits).
            #expect(!second.status().opened && second.status().lag == 0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await second.runUntilCancelled() }
                try await eventually("second run caught up") { let c = await second.checkpoint; let up = await second.caughtUp; return c == 350 && up }
                #expect(second.status().opened)
                #expect(await second.state.balances.count == 350)
                group.cancelAll()
            }
        }
    }

    @Test func theConsumerOfAnEarlierVersionIsRemovedAtStart() async throws {
        try await withLedgerLog { env in
            // What version 0 of the fold left on the server before the bump to 1.
            var old = ConsumerConfig(durableName: "proj_balances_v0_test")
            old.ackPolicy = .none
            _ = try await env.log.jetStream.ensureConsumer(stream: "EVENTS", old)
            let last = try await env.log.append(AccountOpened.random())
            let balances = env.runner()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await balances.runUntilCancelled() }
                try await eventually("folded") { await balances.checkpoint == last.sequence }
                await #expect(throws: NATSError.self) { try await env.log.jetStream.consumerInfo(stream: "EVENTS", name: "proj_balances_v0_test") }
                _ = try await env.log.jetStream.consumerInfo(stream: "EVENTS", name: "proj_balances_v1_test")
                group.cancelAll()
            }
        }
    }

    @Test func rebuildFromSequenceOneEqualsTheLiveState() async throws {
        try await withLedgerLog { env in
            let events = (0..<200).map { _ in AccountOpened.random() }
            _ = try await env.log.appendAll(events)
            for event in events.prefix(20) {
                try await env.log.append(AccountCredited(accountId: event.accountId, amount: 10))
            }
            let live = env.runner()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await live.runUntilCancelled() }
                try await eventually("live caught up") { await live.checkpoint == 220 }
                let progress = ProgressLog()
                let rebuilt = try await ProjectionRunner<Balances>.rebuild(
                    log: env.log, store: env.snapshots, logger: env.logger,
                    progressEvery: .zero) { progress.add($0) }
                #expect(rebuilt.checkpoint == 220)
                // The live fold took the 20 credits as this process appended them; the rebuild read
                // them as stored, and comes to the same.
                #expect(await live.foldedFromAppends == 20)
                #expect(rebuilt.state == (await live.state))
                #expect(progress.last?.remaining == 0 && progress.last?.applied == 220)
                // The scratch consumer is gone; only the live one remains.
                await live.requestReload()
                try await eventually("reloaded") { let c = await live.checkpoint; let up = await live.caughtUp; return c == 220 && up }
                group.cancelAll()
            }
        }
    }
}

final class ProgressLog: Sendable {
    private let reports = Mutex<[RebuildProgress]>([])
    func add(_ report: RebuildProgress) { reports.withLock { $0.append(report) } }
    var last: RebuildProgress? { reports.withLock { $0.last } }
}
