import Foundation
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting
import Testing

@Suite("The log: validated appends, idempotency, optimistic concurrency")
struct EventLogTests {
    @Test func appendValidatesBeforePublishing() async throws {
        try await withLedgerLog { env in
            var bad = AccountOpened.random()
            bad.accountId = "not-an-account"
            let error = await #expect(throws: AppendError.self) { _ = try await env.log.append(bad) }
            #expect(error?.code == .invalid)
            #expect(error?.message.contains("/data/accountId") == true)
            let stored = try await env.log.jetStream.streamInfo("EVENTS").state.messages
            #expect(stored == 0)
        }
    }

    @Test func sameIdempotencyKeyGivesOneEvent() async throws {
        try await withLedgerLog { env in
            let event = AccountOpened.random()
            let first = try await env.log.append(event, options: .init(idempotencyKey: "client-retry-1"))
            let retry = try await env.log.append(event, options: .init(idempotencyKey: "client-retry-1"))
            #expect(!first.duplicate && retry.duplicate && retry.sequence == first.sequence)
            #expect(try await env.log.jetStream.streamInfo("EVENTS").state.messages == 1)
        }
    }

    @Test func optimisticConcurrencyPerAggregate() async throws {
        try await withLedgerLog { env in
            let event = AccountOpened.random()
            let issued = try await env.log.append(event, options: .init(expected: .noEvents))
            // Opening the same account again is refused: the aggregate has events now.
            let again = await #expect(throws: AppendError.self) { _ = try await env.log.append(event, options: .init(expected: .noEvents)) }
            #expect(again?.code == .conflict)
            #expect(try await env.log.lastSequence(app: "ledger", aggregate: "account", id: event.accountId) == issued.sequence)
            let credit = AccountCredited(accountId: event.accountId, amount: 5)
            _ = try await env.log.append(credit, options: .init(expected: .at(issued.sequence)))
            let stale = await #expect(throws: AppendError.self) { _ = try await env.log.append(credit, options: .init(expected: .at(issued.sequence))) }
            #expect(stale?.code == .conflict)
        }
    }

    @Test func oversizedEventIsRefused() async throws {
        try await withLedgerLog { env in
            _ = try await env.log.append(AccountOpened.random(note: String(repeating: "x", count: 100))) // fine
            let big = AccountOpened.random(note: String(repeating: "a", count: 320_000)) // valid, but over the 256 KiB limit
            let error = await #expect(throws: AppendError.self) { _ = try await env.log.append(big) }
            #expect(error?.code == .tooLarge)
        }
    }

    @Test func streamsAreUpdatedIdempotentlyAtStartUp() async throws {
        try await withLedgerLog { env in
            try await env.log.bootstrap()
            try await env.log.bootstrap()
            let info = try await env.log.jetStream.streamInfo("EVENTS")
            #expect(info.config.subjects == ["events.>"])
            #expect(info.config.duplicateWindow == 24 * 3600 * 1_000_000_000)
            #expect(try await env.log.jetStream.streamInfo("DLQ").config.subjects == ["dlq.>"])
            #expect(await env.log.streamsPresent())
        }
    }
}
