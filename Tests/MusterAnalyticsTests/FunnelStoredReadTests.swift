import Foundation
import GRDB
import MusterAppTesting
@testable import MusterAnalytics
import MusterEvents
import MusterJSON
@testable import MusterLog
import MusterNATS
import MusterRuntime
import MusterTesting
import Testing

/// The funnel fold reads a stamped step's few fields straight from the stored bytes
/// (`StoredReader`); everything else is decoded and validated whole. Both ways fold alike, and a
/// stamped event the reader cannot take is not folded on trust: it takes the decoder's way to the DLQ.
@Suite("Funnel steps read from their stored bytes")
struct FunnelStoredReadTests {
    static func step(_ id: String, person: String?, step: String = "search", segment: String = "new") -> FunnelReached {
        let at = Timestamp.string(millis: 1_795_000_000_000 + Int64(id.utf8.count) * 60_000)
        return FunnelReached(eventId: id, sessionId: "s-\(id)", // the aggregate id: a token
                             context: AnalyticsContext(app: "offleash", appVersion: "2.3.0", osName: "iOS", osVersion: "17.5",
                                                       deviceModel: "iPhone15,2", anonymousId: person),
                             times: AnalyticsTimes(createdAt: at, sentAt: at, receivedAt: at, occurredAt: at),
                             funnel: "booking", step: step, segment: segment)
    }

    @Test(arguments: [("e1", "p-1"), ("e-two", nil), ("e3", "P_3")])
    func theStoredReadEqualsTheDecodedEvent(id: String, person: String?) throws {
        let payload = Self.step(id, person: person, step: "pay_now", segment: "returning")
        let stored = try EventEnvelope(source: "test", data: payload).encodeStored()
        let read = try stored.withUnsafeBytes { raw in
            try JSONBytesDecoder().withFields(of: raw) { envelope in
                try FunnelProjection.PersonHit(storedData: try #require(try envelope.object("data")))
            }
        }
        let decoded = try EventCatalog.analytics.decode(subject: FunnelReached.eventType.subject(aggregateID: payload.aggregateID),
                                                        sequence: 1, payload: stored)
        #expect(read == FunnelProjection.PersonHit(try #require(decoded.payload as? FunnelReached)))
        #expect(read.person == (person ?? "s-\(id)"))
    }

    @Test func theReaderTakesOnlyItsTypesSubjects() throws {
        let reader = try #require(FunnelProjection.storage.stored.first)
        #expect(reader.reads("events.analytics.funnel.s-1.reached.v1"))
        for other in ["events.analytics.funnel.s-1.reached.v2", "events.analytics.funnel.s.1.reached.v1", "events.analytics.funnel..reached.v1",
                      "events.analytics.funnel.reached.v1", "events.analytics.screen.s-1.viewed.v1", "xevents.analytics.funnel.s-1.reached.v1", ""] {
            #expect(!reader.reads(other), "\(other)")
        }
    }

    @Test func stampedUnstampedAndUnreadableStepsFoldAsTheDecoderWould() async throws {
        try await apps.withTestApp(["collector", "query"]) { app in
            let js = app.log.jetStream
            _ = try await app.log.append(Self.step("stamped", person: "p-stamped"))
            // The same kind of event published raw: no stamp, so decoded and validated.
            let raw = Self.step("raw", person: "p-raw")
            _ = try await js.publish(OutgoingMessage(subject: FunnelReached.eventType.subject(aggregateID: raw.aggregateID),
                                                     payload: try EventEnvelope(source: "test", data: raw).encodeStored()))
            // A stamp on bytes that are no funnel step: the reader refuses them, and so does the decoder.
            var headers = NATSHeaders()
            headers[EventCatalog.validatedHeader] = FunnelReached.eventType.validationDigest
            let hostile = try await js.publish(OutgoingMessage(subject: FunnelReached.eventType.subject(aggregateID: "evt_hostile"),
                                                               headers: headers, payload: Data(#"{"data":{"funnel":7}}"#.utf8)))
            try await app.settled("funnel", at: hostile.seq)

            let runner = app.env.environment.projections.runner(FunnelProjection.self)
            let people = try await runner.readTables { db in try FunnelTables.people(app: "offleash", funnel: "booking", in: db) }
            #expect(people == 2, "the stamped step and the raw one are both folded")
            // Filed once the batch is committed, a moment after the checkpoint moves.
            try await eventually("the unreadable step in the DLQ") {
                await app.env.environment.projectionReports().first { $0.name == "funnel" }?.deadLettered == 1
            }
            let dlq = try await js.getMessage(stream: app.log.configuration.dlqStream, lastBySubject: "dlq.>")
            #expect(dlq.headers[DeadLetterHeader.originSequence] == String(hostile.seq))
        }
    }
}
