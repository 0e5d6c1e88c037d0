import Foundation
import GRDB
import MusterAppTesting
import MusterEvents
import MusterJSON
@testable import MusterLog
import MusterNATS
@testable import MusterPoP
import MusterRuntime
import MusterTesting
import Testing

/// The sync fold (kept in SQLite) reads a stamped synced batch's changes straight from the stored
/// bytes (`StoredReader`); anything else is decoded and validated whole. Both ways fill the same
/// rows, a rebuild equals the live fold, and a stamped batch the reader cannot take goes to the DLQ.
@Suite("Synced progress read from stored bytes by the sync fold")
struct PoPStoredReadTests {
    /// Every kind of record: cards (one never viewed), a bookmark, an unbookmark.
    static func synced(_ install: Int, at time: String) -> ProgressSynced {
        var batch = CivicsStoredReadTests.synced(install, at: time, known: install % 2 == 0)
        let added = batch.changes.compactMap(\.bookmark).map(\.bookmarkId)
        if install % 3 == 0 {
            batch.changes.append(ProgressRecord(mutationId: UUID().uuidString.lowercased(), unbookmark: .init(bookmarkIds: added)))
        }
        return batch
    }

    @Test func theStoredReadEqualsTheDecodedBatch() throws {
        let payload = Self.synced(3, at: "2026-11-27T10:00:00.250Z")
        let stored = try EventEnvelope(source: "test", data: payload).encodeStored()
        let read = try CivicsStoredReadTests.readData(of: stored, PoPProjection.Synced.init(storedData:))
        let decoded = try EventCatalog.pop.decode(subject: ProgressSynced.eventType.subject(aggregateID: payload.installId), sequence: 1, payload: stored)
        #expect(read == PoPProjection.Synced(try #require(decoded.payload as? ProgressSynced)))
        #expect(read.changes.count == 5 && read.installId == payload.installId)
        guard case .bookmarksRemoved(let removed) = read.changes.last else { Issue.record("\(read.changes)"); return }
        #expect(removed.bookmarkIds.count == 1)
    }

    /// Every row of the sync fold's tables, in a stable order.
    static func rows(_ db: Database) throws -> [String] {
        try ["installs", "cards", "bookmarks"].flatMap { table in
            try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table) \($0)" }.sorted()
        }
    }

    @Test func stampedUnstampedAndUnreadableBatchesFoldAsTheDecoderWouldAndRebuildAlike() async throws {
        try await apps.withTestApp(["ingest"], configure: ProgressSyncTests.decks) { app in
            let js = app.log.jetStream
            let hostile = try await CivicsStoredReadTests.appendStampedRawAndUnreadable(app) { Self.synced($0, at: $1) }
            try await app.settled("pop", at: hostile)

            let runner = app.env.environment.projections.runner(PoPProjection.self)
            let live = try #require(try await runner.readTables(Self.rows))
            // The six appended here are folded as appended (the rebuild below reads them as stored).
            #expect(await runner.foldedFromAppends == 6)
            #expect(live.filter { $0.hasPrefix("installs ") }.count == 7, "six stamped batches and the raw one: \(live)")
            #expect(live.filter { $0.hasPrefix("cards ") }.count == 21 && live.filter { $0.hasPrefix("bookmarks ") }.count == 7)
            #expect(live.filter { $0.hasPrefix("bookmarks ") && $0.contains("removed:1") }.count == 3, "\(live)")
            // Every event decoded whole and folded the decoder's way fills the same rows.
            var events: [RecordedEvent] = []
            for seq in 1...hostile {
                let message = try await js.getMessage(stream: app.log.configuration.eventsStream, sequence: seq)
                guard message.subject.hasPrefix("events.pop.install."),
                      let event = try? app.log.catalog.decode(subject: message.subject, sequence: seq, payload: message.payload) else { continue }
                events.append(event)
            }
            let decoded = try DatabaseQueue()
            try await decoded.write { [events] db in
                try PoPTables.create(db)
                var state = PoPProjection.initialState
                for event in events { try PoPProjection.storage.apply(event, &state, db) }
            }
            #expect(try await decoded.read(Self.rows) == live)
            let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("pop-\(UUID())"))
            defer { try? FileManager.default.removeItem(at: store.directory) }
            let rebuilt = try await ProjectionRunner<PoPProjection>.rebuild(log: app.log, store: store, logger: app.env.environment.logger) { _ in }
            #expect(rebuilt.state.installs == 7 && rebuilt.checkpoint >= hostile)
            let file = try #require(store.currentDatabase(name: PoPProjection.name, version: PoPProjection.version))
            #expect(try await DatabaseQueue(path: file.path).read(Self.rows) == live)
            try await eventually("the unreadable batch in the DLQ") {
                await app.env.environment.projectionReports().first { $0.name == "pop" }?.deadLettered == 1
            }
        }
    }
}
