import Foundation
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterRuntime
import MusterTesting
import Testing

/// What this version does when the next one, beside it in a rolling upgrade, writes a major it has
/// never heard of (`opl.action.submitted.v2`, as the compose test's next version writes it): the
/// fold and the moderation checks read it forward as v1; a v2 that does not read so goes to the
/// DLQ saying to upgrade.
@Suite("A newer major, read forward")
struct ForwardReadTests {
    /// The stored text of a v1 event made into the next version's v2 for `newID`: its type and
    /// schema, and `language` among its fields (where its sorted order puts it).
    static func nextVersion(_ stored: Data, from id: String, to newID: String, language: String? = "de") -> Data {
        var text = String(decoding: stored, as: UTF8.self).replacing(id, with: newID)
            .replacing(#""type":"opl.action.submitted.v1""#, with: #""type":"opl.action.submitted.v2""#)
            .replacing("action.submitted.v1.json", with: "action.submitted.v2.json")
        if let language { text = text.replacing(#""submittedBy":"#, with: #""language":"\#(language)","submittedBy":"#) }
        return Data(text.utf8)
    }

    @Test func theFoldAndTheChecksReadTheNextVersionsEvents() async throws {
        try await apps.withTestApp(["ingest", "moderation"]) { app in
            let id = OPLIDs.random("act_")
            let appended = try await app.log.append(ValidatedStampTests.submitted(id))
            let stored = try await app.log.jetStream.getMessage(stream: app.log.configuration.eventsStream, sequence: appended.sequence)

            let nextID = OPLIDs.random("act_")
            let subject = "events.opl.action.\(nextID).submitted.v2"
            let next = try await app.log.jetStream.publish(OutgoingMessage(subject: subject,
                                                                           payload: Self.nextVersion(stored.payload, from: id, to: nextID)))
            let event = try app.log.catalog.decode(subject: subject, sequence: next.seq,
                                                   payload: Self.nextVersion(stored.payload, from: id, to: nextID))
            #expect(event.storedType.description == "opl.action.submitted.v2")
            #expect(event.payload(as: ActionSubmitted.self)?.actionId == nextID)

            // A v2 that lost a field v1 needs is a breaking change: the DLQ, saying so.
            let brokenID = OPLIDs.random("act_")
            let broken = Data(String(decoding: Self.nextVersion(stored.payload, from: id, to: brokenID), as: UTF8.self)
                .replacing(#""channel":"mobile","#, with: "").utf8)
            let refused = try await app.log.jetStream.publish(OutgoingMessage(subject: "events.opl.action.\(brokenID).submitted.v2",
                                                                              payload: broken))
            try await app.settled("opl", at: refused.seq)
            let report = try #require(await app.env.environment.projectionReports().first { $0.name == "opl" })
            #expect(report.deadLettered == 1, "the v2 that reads as v1 is folded, the other is not")
            let dlq = try await app.log.jetStream.getMessage(stream: app.log.configuration.dlqStream, lastBySubject: "dlq.>")
            #expect(dlq.headers[DeadLetterHeader.originSequence] == String(refused.seq))
            #expect(dlq.headers[DeadLetterHeader.reason]?.contains("written by a newer Muster") == true,
                    "\(dlq.headers[DeadLetterHeader.reason] ?? "")")

            // The moderation checks, filtering on the family, were given the v2 and checked it.
            try await eventually("the v2 submission checked") {
                try await !app.log.read(filter: "events.opl.action.\(nextID).checked.v1").isEmpty
            }
        }
    }
}
