import Foundation
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting
import Synchronization
import Testing

@Suite("Processors: at least once, and many aggregates side by side")
struct EventProcessorTests {
    /// What a handler saw, in the order it saw it, and how many handlers ran at once at most.
    final class Seen: Sendable {
        let state = Mutex<(order: [String: [Int]], running: Int, most: Int, total: Int)>(([:], 0, 0, 0))
    }

    @Test func lanesKeepEachAggregateInOrderAndRunOthersAlongside() async throws {
        try await withLedgerLog { env in
            let accounts = (0..<40).map { _ in AccountOpened.random() }
            for account in accounts { try await env.log.append(account) }
            for amount in 1...5 {
                for account in accounts { try await env.log.append(AccountCredited(accountId: account.accountId, amount: amount)) }
            }
            let seen = Seen()
            var processor = EventProcessor(name: "lanes", filterSubjects: ["events.ledger.>"], log: env.log, logger: env.logger) { event in
                seen.state.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
                // Long enough for the lanes to overlap.
                try await Task.sleep(for: .milliseconds(5))
                seen.state.withLock { state in
                    state.running -= 1
                    state.total += 1
                    if let credited = event.payload as? AccountCredited { state.order[credited.accountId, default: []].append(credited.amount) }
                }
            }
            processor.lanes = 16
            processor.batch = 256
            let running = processor
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await running.runUntilCancelled() }
                let deadline = ContinuousClock.now + .seconds(30)
                while seen.state.withLock({ $0.total }) < 240, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                group.cancelAll()
            }
            let (order, most, total) = seen.state.withLock { ($0.order, $0.most, $0.total) }
            #expect(total == 240)
            #expect(order.count == 40 && order.values.allSatisfy { $0 == [1, 2, 3, 4, 5] }, "each account's credits in the order appended")
            #expect(most > 1 && most <= 16, "lanes ran side by side, never more than asked: \(most)")
        }
    }

    /// A deployment upgraded from a build whose processors filtered on one major (`….credited.v1`)
    /// to one filtering on the family: the durable consumer keeps its place and takes the new
    /// filter, and a newer major published after is handled, read forward.
    @Test func aProcessorsDurableConsumerTakesItsFamilyFilterOnRestart() async throws {
        try await withLedgerLog { env in
            let account = AccountOpened.random()
            try await env.log.append(account)
            let seen = Mutex<[Int]>([])
            func run(_ filter: String, until count: Int) async throws {
                let processor = EventProcessor(name: "upgraded", filterSubjects: [filter], log: env.log, logger: env.logger) { event in
                    if let credited = event.payload as? AccountCredited { seen.withLock { $0.append(credited.amount) } }
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await processor.runUntilCancelled() }
                    try await eventually("\(count) credits handled") { seen.withLock { $0.count } >= count }
                    group.cancelAll()
                }
            }
            try await env.log.append(AccountCredited(accountId: account.accountId, amount: 1))
            try await run(AccountCredited.eventType.subjectFilter, until: 1)
            // The stopped run's last pull request stays at the server until it expires (1 s): an
            // event appended before then is delivered to it and comes back only after the ack
            // wait (30 s), out of order. A restart is slower than that; the test waits it out.
            try await Task.sleep(for: .milliseconds(1500))

            try await env.log.append(AccountCredited(accountId: account.accountId, amount: 2))
            let stored = try await env.log.jetStream.getMessage(stream: env.log.configuration.eventsStream,
                                                               lastBySubject: AccountCredited.eventType.subject(aggregateID: account.accountId))
            let newer = String(decoding: stored.payload, as: UTF8.self).replacing("credited.v1", with: "credited.v2")
                .replacing(#""amount":2"#, with: #""amount":3,"note":"v2""#)
            _ = try await env.log.jetStream.publish(OutgoingMessage(subject: "events.ledger.account.\(account.accountId).credited.v2",
                                                                payload: Data(newer.utf8)))
            try await run(AccountCredited.eventType.familyFilter, until: 3)
            let info = try await env.log.jetStream.consumerInfo(stream: env.log.configuration.eventsStream, name: "proc_upgraded")
            #expect(info.config.filterSubjects == [AccountCredited.eventType.familyFilter])
            #expect(seen.withLock { $0 } == [1, 2, 3], "each credit once, in order, the v2 one read forward")
        }
    }
}
