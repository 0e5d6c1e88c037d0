import Foundation
import GRDB
import MusterAppTesting
import MusterEvents
@testable import MusterField
@testable import MusterLog
import MusterNATS
import MusterRuntime
import MusterTesting
import Testing

/// The field fold keeps its book in SQLite tables, an event reading only the rows it needs; the
/// rules are `FieldBook`'s. Here one history goes through both, event by event: the tables must
/// hold exactly what the book holds, and pull the same pages.
@Suite("Field tables decide as the in-memory book does")
struct FieldTablesTests {
    typealias T = FieldBookTests
    static let (photo, receipt) = (String(repeating: "ab", count: 32), String(repeating: "cd", count: 32))
    static let photoId = "0f0f0f0f-0000-4000-8000-000000000003"

    /// Everything the book decides, in a form both sides give.
    struct Dump: Equatable {
        var records: [String: FieldBook.Record] = [:]
        var conflicts: [String: FieldBook.Conflict] = [:]
        var outcomes: [String: FieldBook.KeptOutcome] = [:]
        var companies: [String: FieldBook.Company] = [:]
        var files: Set<String> = []
        var stored: Set<String> = []
    }

    static func dump(_ book: FieldBook) -> Dump {
        Dump(records: book.records, conflicts: book.conflicts, outcomes: book.outcomes,
             companies: book.companies.mapValues { var company = $0; company.changes = []; return company },
             files: Set(book.files.flatMap { digest, ids in ids.map { "\(digest) \($0)" } }),
             stored: Set(book.storedFiles.flatMap { org, digests in digests.map { "\(org) \($0)" } }))
    }

    static func dump(_ db: Database) throws -> Dump {
        var dump = Dump()
        for row in try Row.fetchAll(db, sql: "SELECT id, body FROM records") {
            dump.records[row[0]] = try FieldTables.decode(FieldBook.Record.self, row, 1)
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, body FROM conflicts") {
            dump.conflicts[row[0]] = try FieldTables.decode(FieldBook.Conflict.self, row, 1)
        }
        for row in try Row.fetchAll(db, sql: "SELECT person_id, device_id, mutation_id, body FROM outcomes") {
            dump.outcomes[FieldBook.outcomeKey(row[0], row[1], row[2])] = try FieldTables.decode(FieldBook.KeptOutcome.self, row, 3)
        }
        for row in try Row.fetchAll(db, sql: "SELECT org_id, body FROM companies") {
            dump.companies[row[0]] = try FieldTables.decode(FieldBook.Company.self, row, 1)
        }
        dump.files = Set(try String.fetchAll(db, sql: "SELECT digest || ' ' || record_id FROM files"))
        dump.stored = Set(try String.fetchAll(db, sql: "SELECT org_id || ' ' || digest FROM stored_files"))
        return dump
    }

    /// The history: files uploaded, a project staffed, an expense with a receipt and a time entry,
    /// a conflict and its resolution, an approval, a photo deleted, a retried batch, a worker taken
    /// off, the company's tombstone days shortened, and three days later the forgetting.
    static func history() -> [(any EventPayload, at: Int64)] {
        let seconds = { (n: Int64) in T.t0 + n * 1000 }
        func pushed(_ device: String, _ person: String, role: String = FieldRoles.worker, _ mutations: FieldMutation...) -> MutationsPushed {
            MutationsPushed(deviceId: device, personId: person, orgId: T.org, role: role, mutations: mutations)
        }
        let conflicting = pushed(T.phone, T.ana, T.mutation(5, .expense, T.expense, base: 1, at: 200, ["amount": "47.25", "notes": "found it"]))
        return [
            (FileStored(digest: photo, orgId: T.org, personId: T.ana, size: 10, type: "image/jpeg"), seconds(1)),
            (FileStored(digest: receipt, orgId: T.org, personId: T.ana, size: 10, type: "image/jpeg"), seconds(2)),
            (pushed(T.office, T.manager, role: FieldRoles.manager, T.mutation(1, .project, T.project, base: 0, at: 0,
                                                                         ["name": "Main St. bridge", "latitude": .number(44.0805), "longitude": .number(-103.231)])), seconds(3)),
            (ProjectAssigned(projectId: T.project, orgId: T.org, personId: T.ana, assigned: true, managerId: T.manager), seconds(4)),
            (ProjectAssigned(projectId: T.project, orgId: T.org, personId: T.ben, assigned: true, managerId: T.manager), seconds(5)),
            (pushed(T.phone, T.ana,
                    T.mutation(2, .expense, T.expense, base: 0, at: 10, ["projectId": .string(T.project), "amount": "42.50", "currency": "USD",
                                                                         "category": "fuel", "date": "2026-11-19", "receipt": .string(receipt)]),
                    T.mutation(3, .timeEntry, T.entry, base: 0, at: 11, ["projectId": .string(T.project), "startTime": "2026-11-19T07:00:00Z",
                                                                         "startLatitude": .number(44.2), "startLongitude": .number(-103.231)])), seconds(6)),
            (pushed(T.office, T.manager, role: FieldRoles.manager, T.mutation(4, .expense, T.expense, base: 1, at: 100, ["amount": "40.00"])), seconds(7)),
            (conflicting, seconds(8)),
            (ConflictResolved(conflictId: T.id(5), orgId: T.org, managerId: T.manager, decision: .takeDevice, values: nil,
                              decidedAt: Timestamp.string(millis: seconds(9))), seconds(9)),
            (pushed(T.phone, T.ana, T.mutation(6, .timeEntry, T.entry, base: 1, at: 300, ["endTime": "2026-11-19T15:00:00Z"])), seconds(10)),
            (TimeEntryApproved(entryId: T.entry, orgId: T.org, managerId: T.manager), seconds(11)),
            (pushed(T.tablet, T.ben, T.mutation(7, .photo, photoId, base: 0, at: 400, ["projectId": .string(T.project), "takenAt": "2026-11-19T08:00:00Z",
                                                                                       "digest": .string(photo)])), seconds(12)),
            (pushed(T.tablet, T.ben, T.mutation(8, .photo, photoId, base: 1, at: 500, [:], deleted: true)), seconds(13)),
            (conflicting, seconds(14)), // retried: changes nothing
            (ProjectAssigned(projectId: T.project, orgId: T.org, personId: T.ben, assigned: false, managerId: T.manager), seconds(15)),
            (CompanyConfigured(orgId: T.org, settings: CompanySettings(importantFields: ["expense.amount"], importantOnceApproved: [], tombstoneDays: 1)),
             seconds(16)),
            (pushed(T.office, T.manager, role: FieldRoles.manager, T.mutation(9, .project, T.project, base: 1, at: 3 * 86_400, ["name": "Main St. bridge (east)"])),
             T.t0 + 3 * 86_400_000),
        ]
    }

    /// Every page `person` pulls from `since`, `limit` records at most a page (about: a page ends between sequences).
    static func pages(_ pull: (PullCursor) throws -> PullPage, since: PullCursor) rethrows -> [String] {
        var (cursor, ids) = (since, [String]())
        for _ in 0..<100 {
            let page = try pull(cursor)
            ids += page.records.map { "\($0.id) v\($0.version)\($0.deleted ? " deleted" : "")" }
            cursor = page.cursor
            if !page.more { break }
        }
        return ids.sorted()
    }

    @Test func eachEventLeavesTheTablesHoldingWhatTheBookHolds() throws {
        let db = try DatabaseQueue()
        try db.write { try FieldTables.create($0) }
        var book = FieldBook()
        for (index, (payload, time)) in Self.history().enumerated() {
            let sequence = index + 1
            book.apply(payload, sequence: UInt64(sequence), at: time)
            try db.write { try FieldTables.fold(payload, sequence: UInt64(sequence), at: time, $0) }
            let tables = try db.read(Self.dump)
            #expect(tables == Self.dump(book), "after event \(sequence), \(type(of: payload))")
        }
        // The history did what it says: a resolved conflict, an approval, the deleted photo forgotten.
        #expect(book.conflicts[T.id(5)]?.decision == .takeDevice && book.records[T.entry]?.approved == true)
        #expect(book.records[Self.photoId] == nil && book.companies[T.org]?.purgedThrough == 13)
        #expect(book.records[T.entry]?.review.isEmpty == false, "the entry started off the site")

        for (person, role) in [(T.manager, FieldRoles.manager), (T.ana, FieldRoles.worker), (T.ben, FieldRoles.worker)] {
            for since in [PullCursor(position: 0), PullCursor(position: 13), PullCursor(position: 6), PullCursor(position: 14, resyncFrom: 12)] {
                for limit in [1, 1_000] {
                    let checkpoint = UInt64(Self.history().count)
                    let memory = Self.pages({ book.page(personId: person, orgId: T.org, role: role, since: $0, limit: limit, checkpoint: checkpoint) },
                                            since: since)
                    let tables = try db.read { db in
                        try Self.pages({ try FieldTables.page(personId: person, orgId: T.org, role: role, since: $0, limit: limit, checkpoint: checkpoint,
                                                              in: db) }, since: since)
                    }
                    #expect(tables == memory, "\(person) since \(since), \(limit) a page")
                }
            }
        }
    }

    /// On a real log: the history appended (pushes stamped, read from their stored bytes), one push
    /// published raw (no stamp: decoded and validated), and stamped bytes that are no push (the DLQ).
    @Test func stampedRawAndUnreadablePushesFoldAsDecodedAndRebuildAlike() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let js = app.log.jetStream
            for (payload, _) in Self.history() { _ = try await app.log.append(payload) }
            let raw = MutationsPushed(deviceId: T.tablet, personId: T.ben, orgId: T.org, role: FieldRoles.worker, mutations: [
                T.mutation(20, .expense, T.id(21), base: 0, at: 20, ["projectId": .string(T.project), "amount": "3.10", "currency": "USD",
                                                                     "category": "coffee", "date": "2026-11-19"]),
            ])
            _ = try await js.publish(OutgoingMessage(subject: MutationsPushed.eventType.subject(aggregateID: raw.deviceId),
                                                     payload: try EventEnvelope(source: "test", data: raw).encodeStored()))
            var headers = NATSHeaders()
            headers[EventCatalog.validatedHeader] = MutationsPushed.eventType.validationDigest
            let hostile = try await js.publish(OutgoingMessage(subject: MutationsPushed.eventType.subject(aggregateID: T.tablet), headers: headers,
                                                               payload: Data(#"{"data":{"mutations":[{"entity":7}]}}"#.utf8)))
            try await app.settled("field", at: hostile.seq)

            let runner = app.env.environment.projections.runner(FieldProjection.self)
            let live = try #require(try await runner.readTables(Self.dump))
            var book = FieldBook()
            for seq in 1...hostile.seq {
                let message = try await js.getMessage(stream: app.log.configuration.eventsStream, sequence: seq)
                guard message.subject.hasPrefix("events.field."),
                      let event = try? app.log.catalog.decode(subject: message.subject, sequence: seq, payload: message.payload),
                      let time = Timestamp.millis(event.time) else { continue }
                book.apply(event.payload, sequence: seq, at: time)
            }
            #expect(live == Self.dump(book), "the tables hold what every event decoded whole gives")
            #expect(live.records[T.id(21)] == nil, "Ben was taken off the project before the raw push: refused")
            #expect(live.outcomes.count == 10 && live.conflicts.count == 1 && live.records.count == 4, "the photo's tombstone stays (log time is now): \(live.records.keys.sorted())")

            let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("field-\(UUID())"))
            defer { try? FileManager.default.removeItem(at: store.directory) }
            let rebuilt = try await ProjectionRunner<FieldProjection>.rebuild(log: app.log, store: store, logger: app.env.environment.logger) { _ in }
            #expect(rebuilt.checkpoint >= hostile.seq)
            let file = try #require(store.currentDatabase(name: FieldProjection.name, version: FieldProjection.version))
            #expect(try await DatabaseQueue(path: file.path).read(Self.dump) == live)
            try await eventually("the unreadable push in the DLQ") {
                await app.env.environment.projectionReports().first { $0.name == "field" }?.deadLettered == 1
            }
        }
    }
}
