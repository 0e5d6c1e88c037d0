import Foundation
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterRuntime
import MusterTesting
import Testing

/// Folds skip the rules for what Muster appended under today's schema (the `Muster-Validated`
/// stamp), and only for that: the same bytes published raw, or stamped for other rules, are
/// validated and a bad one goes to the DLQ.
@Suite("Folds trust what the log validated, and only that")
struct ValidatedStampTests {
    static func submitted(_ id: String) -> ActionSubmitted {
        ActionSubmitted(actionId: id, employer: EmployerDetails(name: "Stamp Freight"),
                        action: ActionDetails(organization: "Local 7", actionType: "strike", location: "Rapid City, SD",
                                              startDate: "2026-11-01T00:00:00Z", durationDays: 3, description: "stamped"),
                        submittedBy: "key_0000000000000001")
    }

    /// The stored text of `payload` with its duration broken (its schema says 1-3650) and the aggregate
    /// id changed: it still reads as an `ActionSubmitted`, it just breaks a rule.
    static func broken(_ stored: Data, from id: String, to newID: String) -> Data {
        Data(String(decoding: stored, as: UTF8.self).replacing(#""durationDays":3"#, with: #""durationDays":0"#)
            .replacing(id, with: newID).utf8)
    }

    @Test func appendStampsAndFoldsTrustOnlyTheStamp() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let id = OPLIDs.random("act_")
            let appended = try await app.log.append(Self.submitted(id))
            let stored = try await app.log.jetStream.getMessage(stream: app.log.configuration.eventsStream, sequence: appended.sequence)
            let stamp = try #require(stored.headers[EventCatalog.validatedHeader], "an append stamps what it validated")
            #expect(stamp == ActionSubmitted.eventType.validationDigest)

            // The catalog, as every fold calls it.
            let catalog = app.log.catalog
            let badID = OPLIDs.random("act_")
            let bad = Self.broken(stored.payload, from: id, to: badID)
            let subject = ActionSubmitted.eventType.subject(aggregateID: badID)
            #expect(throws: EventDecodingError.self) { try catalog.decode(subject: subject, sequence: 1, payload: bad) }
            #expect(throws: EventDecodingError.self) { try catalog.decode(subject: subject, sequence: 1, payload: bad, validated: "000000000000") }
            let trusted = try catalog.decode(subject: subject, sequence: 1, payload: bad, validated: stamp)
            #expect((trusted.payload as? ActionSubmitted)?.action.durationDays == 0, "the rules were not run again")
            // A stamp is no excuse for bytes that do not read as the type.
            #expect(throws: EventDecodingError.self) {
                try catalog.decode(subject: subject, sequence: 1, payload: Data(#"{"hello":"world"}"#.utf8), validated: stamp)
            }

            // The live fold: the broken event published raw goes to the DLQ with its reason; stamped, it is folded.
            let raw = try await app.log.jetStream.publish(OutgoingMessage(subject: subject, payload: bad))
            let otherID = OPLIDs.random("act_")
            var headers = NATSHeaders()
            headers[EventCatalog.validatedHeader] = stamp
            let stamped = try await app.log.jetStream.publish(OutgoingMessage(
                subject: ActionSubmitted.eventType.subject(aggregateID: otherID), headers: headers,
                payload: Self.broken(stored.payload, from: id, to: otherID)))
            try await app.settled("opl", at: stamped.seq)
            let report = try #require(await app.env.environment.projectionReports().first { $0.name == "opl" })
            #expect(report.deadLettered == 1)
            let dlq = try await app.log.jetStream.getMessage(stream: app.log.configuration.dlqStream, lastBySubject: "dlq.>")
            #expect(dlq.headers[DeadLetterHeader.originSequence] == String(raw.seq))
            #expect(dlq.headers[DeadLetterHeader.reason]?.contains("/action/durationDays") == true)
        }
    }
}
