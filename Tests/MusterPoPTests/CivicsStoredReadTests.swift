import Foundation
import MusterAppTesting
import MusterEvents
import MusterJSON
@testable import MusterLog
import MusterNATS
@testable import MusterPoP
import MusterRuntime
import MusterTesting
import Testing

/// The civics fold (kept in memory) reads a stamped synced batch's cards straight from the stored
/// bytes (`StoredReader`); anything else is decoded and validated whole. Both ways fold alike, a
/// rebuild equals the live fold, and a stamped batch the reader cannot take goes to the DLQ.
@Suite("Civics progress read from stored bytes")
struct CivicsStoredReadTests {
    static func synced(_ install: Int, at time: String, known: Bool = true) -> ProgressSynced {
        let card = { (deck: String, question: Int, views: Int, lastViewed: String?) in
            ProgressRecord(mutationId: UUID().uuidString.lowercased(),
                           card: .init(deck: deck, questionId: question, timesViewed: views, lastViewed: lastViewed,
                                       isMarkedKnown: known, changedAt: time))
        }
        return ProgressSynced(installId: CivicsProgressTests.install(install), org: "pop-sd", changes: [
            card("us-civics", 1, install + 1, time),
            ProgressRecord(mutationId: UUID().uuidString.lowercased(),
                           bookmark: .init(bookmarkId: UUID().uuidString.lowercased(), documentId: "constitution", sectionId: nil, createdAt: time)),
            card("sd-civics", 7, 0, nil),
            card("us-civics", 2, 3, time),
        ])
    }

    /// What `read` takes of a stored envelope's `data` object, as a fold's `StoredReader` would.
    static func readData<T>(of stored: Data, _ read: (JSONFields) throws -> T) throws -> T {
        try stored.withUnsafeBytes { raw in
            try JSONBytesDecoder().withFields(of: raw) { envelope in try read(try #require(try envelope.object("data"))) }
        }
    }

    @Test func theStoredReadEqualsTheDecodedBatch() throws {
        let payload = Self.synced(3, at: "2026-11-27T10:00:00.250Z")
        let stored = try EventEnvelope(source: "test", data: payload).encodeStored()
        let read = try Self.readData(of: stored, CivicsProjection.Synced.init(storedData:))
        let decoded = try EventCatalog.pop.decode(subject: ProgressSynced.eventType.subject(aggregateID: payload.installId), sequence: 1, payload: stored)
        #expect(read == CivicsProjection.Synced(try #require(decoded.payload as? ProgressSynced)))
        #expect(read.cards.map(\.questionId) == [1, 7, 2] && read.cards[1].lastViewed == nil && read.cards[0].lastViewed == 1_795_773_600_250)
    }

    /// Six batches appended (stamped), one published raw (no stamp), then a stamped message that is
    /// no synced batch: what both folds' stored-read tests fold. Returns the last one's sequence.
    static func appendStampedRawAndUnreadable(_ app: TestApp, _ batch: (Int, String) -> ProgressSynced) async throws -> UInt64 {
        let js = app.log.jetStream
        let now = Timestamp.string(Date())
        for n in 0..<6 { _ = try await app.log.append(batch(n, now)) }
        // The same kind of event published raw: no stamp, so decoded and validated.
        let raw = batch(9, now)
        _ = try await js.publish(OutgoingMessage(subject: ProgressSynced.eventType.subject(aggregateID: raw.installId),
                                                 payload: try EventEnvelope(source: "test", data: raw).encodeStored()))
        // A stamp on bytes that are no synced batch: the reader refuses them, and so does the decoder.
        var headers = NATSHeaders()
        headers[EventCatalog.validatedHeader] = ProgressSynced.eventType.validationDigest
        let hostile = try await js.publish(OutgoingMessage(subject: ProgressSynced.eventType.subject(aggregateID: CivicsProgressTests.install(10)),
                                                           headers: headers, payload: Data(#"{"data":{"changes":[{"card":{"deck":7}}]}}"#.utf8)))
        return hostile.seq
    }

    @Test func stampedUnstampedAndUnreadableBatchesFoldAsTheDecoderWouldAndRebuildAlike() async throws {
        try await apps.withTestApp(["query"], configure: ProgressSyncTests.decks) { app in
            let js = app.log.jetStream
            let hostile = try await Self.appendStampedRawAndUnreadable(app) { Self.synced($0, at: $1, known: $0 % 2 == 0) }
            try await app.settled("civics", at: hostile)

            let runner = app.env.environment.projections.runner(CivicsProjection.self)
            let live = await runner.current()
            // The six appended here are folded as appended (the rebuild below reads them as stored).
            #expect(await runner.foldedFromAppends == 6)
            #expect(live.state.installs.count == 7, "six stamped batches and the raw one")
            #expect(live.state.questions["pop-sd"]?["us-civics"]?[1]?.devices == 7)
            #expect(live.state.questions["pop-sd"]?["us-civics"]?[1]?.views == (1...6).reduce(10, +), "\(String(describing: live.state.questions))")
            // Every event decoded whole and folded the decoder's way gives the same state.
            var decoded = CivicsProjection.initialState
            for seq in 1...hostile {
                let message = try await js.getMessage(stream: app.log.configuration.eventsStream, sequence: seq)
                guard message.subject.hasPrefix("events.pop.install."),
                      let event = try? app.log.catalog.decode(subject: message.subject, sequence: seq, payload: message.payload) else { continue }
                try CivicsProjection.apply(event, to: &decoded)
            }
            #expect(live.state == decoded)
            let rebuilt = try await ProjectionRunner<CivicsProjection>.rebuild(
                log: app.log, store: SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("civics-\(UUID())")),
                logger: app.env.environment.logger) { _ in }
            #expect(rebuilt.state == live.state && rebuilt.checkpoint == live.checkpoint)
            try await eventually("the unreadable batch in the DLQ") {
                await app.env.environment.projectionReports().first { $0.name == "civics" }?.deadLettered == 1
            }
        }
    }
}
