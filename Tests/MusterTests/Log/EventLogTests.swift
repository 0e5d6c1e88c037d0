import Foundation
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import Testing

@Suite("The log: validated appends, idempotency, optimistic concurrency")
struct EventLogTests {
    @Test func appendValidatesBeforePublishing() async throws {
        try await withTestLog { env in
            var (_, bad) = issuedKey(scopes: ["read:mobile"])
            bad.keyHash = "not-a-hash"
            let error = await #expect(throws: AppendError.self) { _ = try await env.log.append(bad) }
            #expect(error?.code == .invalid)
            #expect(error?.message.contains("/data/keyHash") == true)
            let stored = try await env.log.jetStream.streamInfo("EVENTS").state.messages
            #expect(stored == 0)
        }
    }

    @Test func sameIdempotencyKeyGivesOneEvent() async throws {
        try await withTestLog { env in
            let (_, event) = issuedKey(scopes: ["read:mobile"])
            let first = try await env.log.append(event, options: .init(idempotencyKey: "client-retry-1"))
            let retry = try await env.log.append(event, options: .init(idempotencyKey: "client-retry-1"))
            #expect(!first.duplicate && retry.duplicate && retry.sequence == first.sequence)
            #expect(try await env.log.jetStream.streamInfo("EVENTS").state.messages == 1)
        }
    }

    @Test func optimisticConcurrencyPerAggregate() async throws {
        try await withTestLog { env in
            let (_, event) = issuedKey(scopes: ["read:mobile"])
            let issued = try await env.log.append(event, options: .init(expected: .noEvents))
            // Issuing the same key id again is refused: the aggregate has events now.
            let again = await #expect(throws: AppendError.self) { _ = try await env.log.append(event, options: .init(expected: .noEvents)) }
            #expect(again?.code == .conflict)
            #expect(try await env.log.lastSequence(app: "platform", aggregate: "apikey", id: event.keyId) == issued.sequence)
            let revoke = APIKeyRevoked(keyId: event.keyId, reason: "test", revokedBy: "test")
            _ = try await env.log.append(revoke, options: .init(expected: .at(issued.sequence)))
            let stale = await #expect(throws: AppendError.self) { _ = try await env.log.append(revoke, options: .init(expected: .at(issued.sequence))) }
            #expect(stale?.code == .conflict)
        }
    }

    @Test func oversizedEventIsRefused() async throws {
        try await withTestLog { env in
            var (_, event) = issuedKey(scopes: ["read:mobile"])
            event.label = String(repeating: "x", count: 100)
            _ = try await env.log.append(event) // fine
            var big = issuedKey(scopes: (0..<32).map { "read:scope-\($0)-" + String(repeating: "a", count: 10_000) }).event
            big.label = "big"
            let error = await #expect(throws: AppendError.self) { _ = try await env.log.append(big) }
            #expect(error?.code == .tooLarge)
        }
    }

    @Test func streamsAreUpdatedIdempotentlyAtStartUp() async throws {
        try await withTestLog { env in
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
