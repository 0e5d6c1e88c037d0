import Foundation
import MusterEvents
@testable import MusterField
import MusterJSON
@testable import MusterLog
import Testing

/// The field book's snapshot is written member by member (`FieldBook+Snapshot`): the bytes must be
/// the ones its `Codable` conformance writes, since loading decodes them through it.
@Suite("The field book's snapshot, written by hand, as its conformance writes it")
struct FieldBookSnapshotTests {
    typealias T = FieldBookTests

    /// Writes `book` through `Codable` (nested, so the hand-written members are not used).
    struct ThroughCodable: Encodable {
        var book: FieldBook
    }

    static func byHand(_ book: FieldBook) throws -> [UInt8] {
        try JSONBytesEncoder().encodeObject { try $0.object("book") { try book.encodeMembers(&$0) } }
    }

    /// Every kind of value the book holds: a conflict and its decision, an approval, a deletion, a
    /// refusal, a merged outcome, nulls, company settings and members, files and uploads.
    static func everything() -> FieldBook {
        var book = T.staffed()
        _ = T.push(&book, 5, device: T.office, person: T.manager, role: FieldRoles.manager,
                   T.mutation(3, .expense, T.expense, base: 1, at: 100, ["amount": "40.00", "notes": .null]))
        _ = T.push(&book, 6, device: T.phone, person: T.ana, T.mutation(4, .expense, T.expense, base: 1, at: 200, ["amount": "47.25"]))
        book.apply(ConflictResolved(conflictId: T.id(4), orgId: T.org, managerId: T.manager, decision: .keepServer, values: nil,
                                    decidedAt: Timestamp.string(millis: T.t0 + 300_000)), sequence: 7)
        _ = T.push(&book, 8, device: T.phone, person: T.ana,
                   T.mutation(5, .timeEntry, T.entry, base: 0, at: 10, ["projectId": .string(T.project), "startTime": "2026-11-19T07:00:00Z",
                                                                      "startLatitude": .number(44.3), "startLongitude": .number(-103.231)]),
                   T.mutation(6, .photo, T.id(77), base: 0, at: 11, ["projectId": .string(T.project), "takenAt": "2026-11-19T08:00:00Z",
                                                                    "digest": .string(String(repeating: "ab", count: 32))]),
                   T.mutation(7, .project, T.id(78), base: 0, at: 12, ["name": "not a worker's to make"]))
        book.apply(TimeEntryApproved(entryId: T.entry, orgId: T.org, managerId: T.manager), sequence: 9)
        _ = T.push(&book, 10, device: T.tablet, person: T.manager, role: FieldRoles.manager,
                   T.mutation(8, .expense, T.expense, base: 1, at: 50, ["category": "tools"]))
        _ = T.push(&book, 11, device: T.phone, person: T.ana, T.mutation(9, .photo, T.id(77), base: 1, at: 400, [:], deleted: true))
        book.apply(CompanyConfigured(orgId: T.org, settings: CompanySettings(importantFields: ["expense.amount"], importantOnceApproved: [],
                                                                             tombstoneDays: 7, timeZone: "America/Denver")))
        return book
    }

    @Test func theBytesAreTheConformances() throws {
        let book = Self.everything()
        #expect(book.conflicts.count == 1 && book.records.values.contains(where: \.deleted) && book.records.values.contains(where: \.approved))
        #expect(book.outcomes.values.contains { if case .refused = $0.outcome { true } else { false } })
        #expect(book.outcomes.values.contains { if case .merged = $0.outcome { true } else { false } })
        #expect(book.outcomes.values.contains { if case .conflict = $0.outcome { true } else { false } })
        let codable = try JSONBytesEncoder().encode(ThroughCodable(book: book))
        #expect(String(decoding: try Self.byHand(book), as: UTF8.self) == String(decoding: codable, as: UTF8.self))
        // A snapshot of it takes the hand-written way, and loads back equal.
        let snapshot = Snapshot(projection: "field", version: FieldProjection.version, checkpoint: 11, savedAt: "2026-11-28T10:00:00Z", state: book)
        let bytes = try JSONBytesEncoder().encode(snapshot)
        #expect(try JSONBytesDecoder().decode(Snapshot<FieldBook>.self, from: bytes).state == book)
        struct PlainSnapshot: Encodable { var snapshot: Snapshot<FieldBook> }
        let plain = try JSONBytesEncoder().encode(PlainSnapshot(snapshot: snapshot))
        #expect(Array(plain.dropFirst(#"{"snapshot":"#.utf8.count).dropLast()) == bytes)
    }

    @Test func aBookOfFiveThousandRecords() throws {
        var book = T.staffed()
        for batch in 0..<10 {
            let mutations = (0..<500).map { i in
                T.mutation(10_000 + batch * 500 + i, .photo, T.id(100_000 + batch * 500 + i), base: 0, at: 40,
                           ["projectId": .string(T.project), "takenAt": "2026-11-19T08:00:00Z", "digest": .string(String(repeating: "ab", count: 32))])
            }
            book.apply(MutationsPushed(deviceId: T.phone, personId: T.ana, orgId: T.org, role: FieldRoles.worker, mutations: mutations),
                       sequence: UInt64(10 + batch), at: T.t0 + 60_000)
        }
        #expect(book.records.count == 5_002)
        // Big objects come out of order and are put in order as they close: the same order both ways.
        // (`muster-bench field-snapshot-cost` times the two, in a release build.)
        #expect(try Self.byHand(book) == JSONBytesEncoder().encode(ThroughCodable(book: book)))
    }
}
