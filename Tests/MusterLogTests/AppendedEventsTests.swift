import Foundation
import MusterEvents
@testable import MusterLog
import Testing

/// What a live fold takes of this process's appends: only the event whose subject and bytes are
/// the delivered message's, with the delivery's sequence, and only the latest ones.
@Suite("Events appended here, for this process's folds")
struct AppendedEventsTests {
    static func kept(_ credit: AccountCredited, in appended: AppendedEvents) throws -> (subject: String, bytes: Data) {
        let envelope = EventEnvelope(source: "test", data: credit)
        let subject = AccountCredited.eventType.subject(aggregateID: credit.accountId)
        let bytes = try envelope.encodeStored()
        appended.record(envelope.recorded(sequence: 0, subject: subject), subject: subject, bytes: bytes)
        return (subject, bytes)
    }

    @Test func onlyTheSameSubjectAndBytesFindTheEventWithTheDeliveredSequence() throws {
        let appended = AppendedEvents()
        let credit = AccountCredited(accountId: "acc_1", amount: 10)
        let (subject, bytes) = try Self.kept(credit, in: appended)
        let found = try #require(appended.event(at: 42, subject: subject, payload: bytes))
        #expect(found.sequence == 42 && found.subject == subject && found.payload as? AccountCredited == credit)
        #expect(found.storedType == AccountCredited.eventType && found.aggregateID == "acc_1")
        // The catalog reads the same bytes back as the same event.
        let decoded = try EventCatalog.ledger.decode(subject: subject, sequence: 42, payload: bytes)
        #expect(decoded.payload as? AccountCredited == credit)
        #expect((decoded.id, decoded.source, decoded.time, decoded.actor, decoded.traceparent) == (found.id, found.source, found.time, found.actor, found.traceparent))
        // Other bytes under the subject (another event, one byte changed), or the bytes under another subject: not it.
        var changed = bytes
        changed[changed.count - 2] ^= 1
        #expect(appended.event(at: 42, subject: subject, payload: changed) == nil)
        #expect(appended.event(at: 42, subject: subject, payload: bytes.dropLast()) == nil)
        #expect(appended.event(at: 42, subject: subject + "x", payload: bytes) == nil)
    }

    @Test func theOldestGoFirst() throws {
        let appended = AppendedEvents()
        let kept = try (0..<(AppendedEvents.maxEntries + 5)).map { try Self.kept(AccountCredited(accountId: "acc_\($0 % 3)", amount: $0), in: appended) }
        for (index, event) in kept.enumerated() {
            let found = appended.event(at: UInt64(index + 1), subject: event.subject, payload: event.bytes)
            #expect((found != nil) == (index >= 5), "event \(index)")
            #expect(found.map { ($0.payload as? AccountCredited)?.amount == index } ?? true)
        }
    }

    @Test func aBigEventPushesOutOlderOnesByBytes() throws {
        let appended = AppendedEvents()
        let small = try Self.kept(AccountCredited(accountId: "acc_small", amount: 1), in: appended)
        let envelope = EventEnvelope(source: "test", data: AccountCredited(accountId: "acc_big", amount: 2))
        let subject = AccountCredited.eventType.subject(aggregateID: "acc_big")
        let big = Data(count: AppendedEvents.maxBytes) // stands for the bytes; only their size counts here
        appended.record(envelope.recorded(sequence: 0, subject: subject), subject: subject, bytes: big)
        #expect(appended.event(at: 1, subject: small.subject, payload: small.bytes) == nil)
        #expect(appended.event(at: 2, subject: subject, payload: big) != nil, "the newest stays, however big")
    }
}
