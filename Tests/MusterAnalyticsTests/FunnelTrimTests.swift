import Foundation
import GRDB
import MusterAnalytics
import MusterEvents
import MusterLog
import Synchronization
import Testing

/// The funnel keeps at most `maxHitsPerPerson` hits a person, trimmed once a batch: the newest
/// by time, the later arrival among equal times, whatever batches the hits came in.
@Suite("Funnel hits trimmed once a batch")
struct FunnelTrimTests {
    let tables = FunnelProjection.storage
    let base: Int64 = 1_795_000_000_000
    /// Each hit's stream sequence, rising as the log's do (the table keys hits by it).
    let sequences = Sequences()

    final class Sequences: Sendable {
        let last = Atomic<UInt64>(0)
        func next() -> UInt64 { last.add(1, ordering: .relaxed).newValue }
    }

    func hit(_ id: String, person: String, minute: Int64, step: String = "search") throws -> RecordedEvent {
        let at = Timestamp.string(millis: base + minute * 60_000)
        let payload = FunnelReached(eventId: id, sessionId: "s-\(person)",
                                    context: AnalyticsContext(app: "offleash", appVersion: "2.3.0", osName: "iOS", osVersion: "17.5",
                                                              deviceModel: "iPhone15,2", anonymousId: person),
                                    times: AnalyticsTimes(createdAt: at, sentAt: at, receivedAt: at, occurredAt: at),
                                    funnel: "booking", step: step, segment: "new")
        return try EventCatalog.analytics.decode(subject: FunnelReached.eventType.subject(aggregateID: payload.aggregateID), sequence: sequences.next(),
                                                 payload: try JSONEncoder().encode(EventEnvelope(source: "test", data: payload)))
    }

    /// Folds one batch as the runner does: every event, then the end of the batch.
    func fold(_ events: [RecordedEvent], into db: DatabaseQueue, state: inout FunnelProjection.State) throws {
        state = try db.write { db in
            var folded = state
            for event in events { try tables.apply(event, &folded, db) }
            try tables.endBatch(&folded, db)
            return folded
        }
    }

    /// A person's hits as "minute step", oldest first.
    func kept(_ person: String, in db: DatabaseQueue) throws -> [String] {
        try db.read { db in
            try String.fetchAll(db, sql: "SELECT ((at - ?) / 60000) || ' ' || step FROM funnel_hits WHERE person = ? ORDER BY at, seq",
                                arguments: [base, person])
        }
    }

    @Test func eachPersonKeepsTheNewestHitsAcrossBatches() throws {
        let db = try DatabaseQueue()
        try db.write { try tables.create($0) }
        var state = FunnelProjection.initialState
        let max = FunnelProjection.maxHitsPerPerson

        // One batch with 50 more hits than the cap for "a" (minutes 0 to max + 49) and one more at
        // minute 50, the oldest time kept: of the two hits then, the later arrival is the newer.
        var batch = try (0..<(max + 50)).map { try hit("a\($0)", person: "a", minute: Int64($0)) }
        batch.append(try hit("a-tie", person: "a", minute: 50, step: "tie"))
        batch += try (0..<3).map { try hit("b\($0)", person: "b", minute: Int64($0)) }
        try fold(batch, into: db, state: &state)
        let a = try kept("a", in: db)
        #expect(a.count == max)
        #expect(a.first == "50 tie" && a.last == "\(max + 49) search")
        #expect(try kept("b", in: db).count == 3)

        // A later batch of hits older than every one kept: they are the ones dropped.
        try fold(try (0..<5).map { try hit("old\($0)", person: "a", minute: 10 + Int64($0), step: "old") }, into: db, state: &state)
        #expect(try kept("a", in: db) == a)

        // A batch that touches only "c" leaves "a" and "b" as they were.
        try fold([try hit("c0", person: "c", minute: 0)], into: db, state: &state)
        #expect(try kept("a", in: db) == a)
        #expect(try kept("b", in: db).count == 3 && kept("c", in: db).count == 1)
        #expect(state.events == max + 51 + 3 + 5 + 1)
    }
}
