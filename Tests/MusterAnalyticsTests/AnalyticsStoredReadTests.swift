import Foundation
import GRDB
@testable import MusterAnalytics
import MusterEvents
import MusterJSON
@testable import MusterLog
import Testing

/// The analytics fold reads its four commonest types straight from the stored bytes
/// (`StoredReader`): folding a mix of them that way leaves the same state and tables as decoding
/// each event whole and folding it.
@Suite("Analytics events read from their stored bytes")
struct AnalyticsStoredReadTests {
    static func context(_ app: String) -> AnalyticsContext {
        AnalyticsContext(app: app, appVersion: "2.3.0", osName: "iOS", osVersion: "17.5", deviceModel: "iPhone15,2", anonymousId: "p-1")
    }

    static func times(_ minute: Int64) -> AnalyticsTimes {
        let at = Timestamp.string(millis: 1_795_000_000_000 + minute * 60_000)
        return AnalyticsTimes(createdAt: at, sentAt: at, receivedAt: at, occurredAt: at)
    }

    /// Every kind of each type the fold tells apart: timed and untimed views, failed and good calls.
    static var mix: [any AnalyticsEvent] {
        (0..<40).flatMap { i -> [any AnalyticsEvent] in
            let app = i % 3 == 0 ? "offleash" : "opl"
            let session = "s-\(i % 7)"
            return [
                ScreenViewed(eventId: "v\(i)", sessionId: session, context: context(app), times: times(Int64(i)),
                             screen: "screen-\(i % 5)", previousScreen: i % 2 == 0 ? nil : "home", durationMs: i % 4 == 0 ? nil : i * 10),
                ScreenLoaded(eventId: "l\(i)", sessionId: session, context: context(app), times: times(Int64(i)),
                             screen: "screen-\(i % 5)", durationMs: 100 + i, source: i % 2 == 0 ? "cache" : "network"),
                APICalled(eventId: "a\(i)", sessionId: session, context: context(app), times: times(Int64(i * 90)),
                          method: "GET", endpoint: "/bookings/{id}", status: i % 6 == 0 ? 500 : 200, durationMs: i,
                          retryCount: i % 3, failed: i % 6 == 0, errorType: i % 12 == 0 ? "timeout" : nil, errorMessage: nil),
                FunnelReached(eventId: "f\(i)", sessionId: session, context: context(app), times: times(Int64(i)),
                              funnel: "booking", step: "step-\(i % 3)", segment: "new"),
            ]
        }
    }

    static func stored<E: AnalyticsEvent>(_ event: E) throws -> Data { try EventEnvelope(source: "test", data: event).encodeStored() }

    @Test func theStoredReadFoldsAsTheDecodedEvent() throws {
        let decoded = try DatabaseQueue(), stored = try DatabaseQueue()
        try decoded.write(AnalyticsTables.create)
        try stored.write(AnalyticsTables.create)
        var byDecoding = AnalyticsProjection.initialState, byReading = AnalyticsProjection.initialState
        let readers = AnalyticsProjection.storage.stored
        for (index, event) in Self.mix.enumerated() {
            let type = Swift.type(of: event).eventType
            let bytes = try Self.stored(event)
            let recorded = try EventCatalog.analytics.decode(subject: type.subject(aggregateID: event.aggregateID),
                                                             sequence: UInt64(index + 1), payload: bytes)
            try decoded.write { try AnalyticsProjection.fold(recorded, into: &byDecoding, $0) }
            let reader = try #require(readers.first { $0.type == type }, "a reader for \(type)")
            #expect(reader.reads(type.subject(aggregateID: event.aggregateID)))
            let fact = try bytes.withUnsafeBytes { raw in
                try JSONBytesDecoder().withFields(of: raw) { envelope in try reader.read(try #require(try envelope.object("data"))) }
            }
            try stored.write { try reader.apply(fact, UInt64(index + 1), &byReading, $0) }
        }
        #expect(byReading == byDecoding)
        #expect(byReading.events == Self.mix.count)
        for table in ["analytics_sessions", "analytics_crash_sessions", "analytics_crash_reports"] {
            let rows = { (db: Database) in try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map(\.description).sorted() }
            #expect(try stored.read(rows) == decoded.read(rows), "\(table)")
        }
    }
}
