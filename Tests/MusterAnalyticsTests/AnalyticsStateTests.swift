import Foundation
import GRDB
import MusterAnalytics
import MusterEvents
import MusterJSON
import MusterLog
import Testing

/// The analytics fold's bounded state is written with every batch by our JSON encoder and read
/// back at start by our decoder: histograms, integer-keyed dictionaries, alert rules and all.
@Suite("Analytics fold state through its own storage")
struct AnalyticsStateTests {
    func recorded<P: EventPayload>(_ payload: P, sequence: UInt64) throws -> RecordedEvent {
        try EventCatalog.analytics.decode(subject: P.eventType.subject(aggregateID: payload.aggregateID), sequence: sequence,
                                          payload: try JSONEncoder().encode(EventEnvelope(source: "test", data: payload)))
    }

    @Test func aFoldedStateReadsBackEqual() throws {
        let db = try DatabaseQueue()
        let tables = AnalyticsProjection.storage
        try db.write { try tables.create($0) }
        let sentAt = "2026-11-21T12:00:00.000Z"
        let received = try #require(Timestamp.millis(sentAt))
        let clock = try #require(EventClock(sentAt: sentAt, receivedMillis: received))
        let context = AnalyticsContext(app: "offleash", appVersion: "2.3.0", osName: "iOS", osVersion: "17.5", deviceModel: "iPhone15,2")
        var events: [String] = []
        for i in 0..<200 {
            events.append(Wire.screenView("v\(i)", screen: "S\(i % 7)", session: "s\(i / 10)", at: sentAt, duration: 100 + i * 37))
            events.append(Wire.tti("t\(i)", screen: "S\(i % 3)", ms: 40 + i, source: i % 2 == 0 ? "cache" : "network", session: "s\(i / 10)", at: sentAt))
            events.append(Wire.apiCall("a\(i)", endpoint: "/bookings/\(i)", status: i % 9 == 0 ? 503 : 200, session: "s\(i / 10)", at: sentAt))
        }
        let batch = try JSONDecoder().decode(WireBatch.self, from: Data(Wire.batch(sentAt: sentAt, events).utf8))
        var state = AnalyticsProjection.initialState
        var sequence: UInt64 = 0
        try db.write { db in
            for item in batch.events {
                sequence += 1
                let event = try item.result.get().logEvent(context: context, clock: clock, redactor: Redactor())
                try tables.apply(try recorded(event, sequence: sequence), &state, db)
            }
        }
        #expect(state.events == 600)
        #expect(!(state.endpoints["offleash"] ?? [:]).isEmpty && !(state.tti["offleash"] ?? [:]).isEmpty)
        let bytes = try JSONBytesEncoder().encode(state)
        #expect(try JSONBytesDecoder().decode(AnalyticsProjection.State.self, from: bytes) == state)
        #expect(try JSONDecoder().decode(AnalyticsProjection.State.self, from: Data(bytes)) == state)
    }
}
