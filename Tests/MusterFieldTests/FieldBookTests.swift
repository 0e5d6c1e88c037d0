import Foundation
import MusterEvents
import MusterField
import Testing

/// The merge as a pure state machine: pushes applied to a `FieldBook` in log order.
@Suite("Field sync merges: field-level last writer, conflicts on important fields, tombstones, pages")
struct FieldBookTests {
    static let org = "0a0a0a0a-0000-4000-8000-000000000001"
    static let manager = "0b0b0b0b-0000-4000-8000-000000000001"
    static let (ana, ben) = ("0c0c0c0c-0000-4000-8000-000000000001", "0c0c0c0c-0000-4000-8000-000000000002")
    static let (phone, tablet, office) = ("0d0d0d0d-0000-4000-8000-000000000001", "0d0d0d0d-0000-4000-8000-000000000002",
                                          "0d0d0d0d-0000-4000-8000-000000000003")
    static let project = "0e0e0e0e-0000-4000-8000-000000000001"
    static let expense = "0f0f0f0f-0000-4000-8000-000000000001"
    static let entry = "0f0f0f0f-0000-4000-8000-000000000002"
    static let t0: Int64 = 1_795_000_000_000 // 2026-11-19

    /// A distinct mutation id for `n`.
    static func id(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return "1a1a1a1a-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    static func mutation(_ n: Int, _ kind: EntityKind, _ record: String, base: Int, at seconds: Int64, _ fields: [String: JSONValue],
                         deleted: Bool? = nil) -> FieldMutation {
        FieldMutation(mutationId: id(n), entity: kind, id: record, baseVersion: base, fields: fields, deleted: deleted,
                      changedAt: Timestamp.string(millis: t0 + seconds * 1000))
    }

    static func push(_ book: inout FieldBook, _ sequence: UInt64, device: String, person: String, role: String = FieldRoles.worker,
                     _ mutations: FieldMutation...) -> [FieldBook.Outcome] {
        let pushed = MutationsPushed(deviceId: device, personId: person, orgId: org, role: role, mutations: mutations)
        book.apply(pushed, sequence: sequence, at: t0 + Int64(sequence) * 1000)
        return mutations.map { book.outcome(person: person, device: device, mutation: $0.mutationId) ?? .refused("none") }
    }

    /// A project near Rapid City with Ana and Ben on it, and one expense of Ana's at version 1.
    static func staffed() -> FieldBook {
        var book = FieldBook()
        // The company uploaded the two files its records name in these tests.
        book.storedFiles[org] = [String(repeating: "ab", count: 32), String(repeating: "cd", count: 32)]
        _ = push(&book, 1, device: office, person: manager, role: FieldRoles.manager,
                 mutation(1, .project, project, base: 0, at: 0, ["name": "Main St. bridge", "latitude": .number(44.0805), "longitude": .number(-103.231),
                                                                 "startDate": "2026-11-01"]))
        book.apply(ProjectAssigned(projectId: project, orgId: org, personId: ana, assigned: true, managerId: manager), sequence: 2)
        book.apply(ProjectAssigned(projectId: project, orgId: org, personId: ben, assigned: true, managerId: manager), sequence: 3)
        _ = push(&book, 4, device: phone, person: ana,
                 mutation(2, .expense, expense, base: 0, at: 10, ["projectId": .string(project), "amount": "42.50", "currency": "USD",
                                                                  "category": "fuel", "date": "2026-11-19", "notes": "diesel"]))
        return book
    }

    @Test func twoDevicesEditingDifferentFieldsOfflineBothKeepTheirEdits() {
        var book = Self.staffed()
        // Both saw version 1; the phone changes the category, the tablet (the manager's, later) the notes.
        #expect(Self.push(&book, 5, device: Self.phone, person: Self.ana, Self.mutation(3, .expense, Self.expense, base: 1, at: 100, ["category": "materials"]))
                == [.applied(version: 2)])
        #expect(Self.push(&book, 6, device: Self.tablet, person: Self.manager, role: FieldRoles.manager,
                          Self.mutation(4, .expense, Self.expense, base: 1, at: 50, ["notes": "diesel for the generator"]))
                == [.merged(version: 3)], "it had not seen version 2: merged, not a conflict")
        let values = book.record(Self.expense)?.values
        #expect(values?["category"] == "materials" && values?["notes"] == "diesel for the generator")
    }

    @Test func equalVersionsAreNoConflict() {
        var book = Self.staffed()
        // The public server this replaces calls a change made on the version it replaces a conflict.
        #expect(Self.push(&book, 5, device: Self.phone, person: Self.ana, Self.mutation(3, .expense, Self.expense, base: 1, at: 100, ["amount": "45.00"]))
                == [.applied(version: 2)])
        #expect(book.conflicts.isEmpty)
    }

    @Test func anImportantFieldIsNeverOverwrittenSilentlyAndAManagerDecides() {
        var book = Self.staffed()
        _ = Self.push(&book, 5, device: Self.office, person: Self.manager, role: FieldRoles.manager,
                      Self.mutation(3, .expense, Self.expense, base: 1, at: 100, ["amount": "40.00"]))
        // Ana, offline since version 1, changes the amount too, and a note.
        let outcome = Self.push(&book, 6, device: Self.phone, person: Self.ana,
                                Self.mutation(4, .expense, Self.expense, base: 1, at: 200, ["amount": "47.25", "notes": "receipt found"]))
        #expect(outcome == [.conflict(conflictId: Self.id(4), version: 3, server: ["amount": "40.00"])])
        #expect(book.record(Self.expense)?.values["amount"] == "40.00", "the amount stays until a manager decides")
        #expect(book.record(Self.expense)?.values["notes"] == "receipt found", "the other field merges as usual")
        // A retry answers the same and changes nothing.
        #expect(Self.push(&book, 7, device: Self.phone, person: Self.ana,
                          Self.mutation(4, .expense, Self.expense, base: 1, at: 200, ["amount": "47.25", "notes": "receipt found"])) == outcome)
        #expect(book.record(Self.expense)?.version == 3)

        book.apply(ConflictResolved(conflictId: Self.id(4), orgId: Self.org, managerId: Self.manager, decision: .takeDevice, values: nil,
                                    decidedAt: Timestamp.string(millis: Self.t0 + 300_000)), sequence: 8)
        #expect(book.record(Self.expense)?.values["amount"] == "47.25")
        #expect(book.record(Self.expense)?.version == 4 && book.conflicts[Self.id(4)]?.decision == .takeDevice)
    }

    @Test func aTimeEntrysStartIsImportantOnlyOnceApproved() {
        var book = Self.staffed()
        let start = { (n: Int, base: Int, time: String) in
            Self.mutation(n, .timeEntry, Self.entry, base: base, at: Int64(n) * 10, ["projectId": .string(Self.project), "startTime": .string(time)])
        }
        _ = Self.push(&book, 5, device: Self.phone, person: Self.ana, start(3, 0, "2026-11-19T07:00:00Z"))
        _ = Self.push(&book, 6, device: Self.phone, person: Self.ana, start(4, 1, "2026-11-19T07:05:00Z"))
        #expect(Self.push(&book, 7, device: Self.tablet, person: Self.ana, start(5, 1, "2026-11-19T06:55:00Z")) == [.merged(version: 3)],
                "before approval the later write wins")
        book.apply(TimeEntryApproved(entryId: Self.entry, orgId: Self.org, managerId: Self.manager), sequence: 8)
        guard case .conflict = Self.push(&book, 9, device: Self.tablet, person: Self.ana, start(6, 3, "2026-11-19T06:00:00Z")).first else {
            Issue.record("an approved start changed by a device that had not seen the approval must conflict")
            return
        }
        #expect(book.record(Self.entry)?.values["startTime"] == "2026-11-19T06:55:00Z")
    }

    @Test func workersOffTheProjectAreRefusedAndSeeNothing() {
        var book = Self.staffed()
        let stranger = "0c0c0c0c-0000-4000-8000-000000000009"
        let outcome = Self.push(&book, 5, device: Self.tablet, person: stranger,
                                Self.mutation(3, .photo, "0f0f0f0f-0000-4000-8000-000000000003", base: 0, at: 0,
                                              ["projectId": .string(Self.project), "takenAt": "2026-11-19T08:00:00Z", "digest": .string(String(repeating: "ab", count: 32))]))
        guard case .refused = outcome.first else { Issue.record("a worker off the project wrote a photo: \(outcome)"); return }
        let page = book.page(personId: stranger, orgId: Self.org, role: FieldRoles.worker, since: PullCursor(position: 0), limit: 100, checkpoint: 5)
        #expect(page.records.isEmpty)
        // Ben sees the project but not Ana's expense; the manager sees both.
        let ben = book.page(personId: Self.ben, orgId: Self.org, role: FieldRoles.worker, since: PullCursor(position: 0), limit: 100, checkpoint: 5)
        #expect(ben.records.map(\.kind) == [.project])
        let manager = book.page(personId: Self.manager, orgId: Self.org, role: FieldRoles.manager, since: PullCursor(position: 0), limit: 100, checkpoint: 5)
        #expect(manager.records.map(\.kind) == [.project, .expense])
        #expect(Self.push(&book, 6, device: Self.tablet, person: Self.ben, Self.mutation(4, .expense, Self.expense, base: 1, at: 0, ["notes": "mine now"]))
                .first.map { if case .refused = $0 { true } else { false } } == true, "Ben cannot change Ana's expense")
        #expect(Self.push(&book, 7, device: Self.tablet, person: Self.ben, Self.mutation(5, .project, Self.project, base: 1, at: 0, ["name": "x"]))
                == [.refused("only managers change projects")])
    }

    @Test func deletionsReachPullsUntilForgottenThenDevicesResync() {
        var book = Self.staffed()
        #expect(Self.push(&book, 5, device: Self.phone, person: Self.ana, Self.mutation(3, .expense, Self.expense, base: 1, at: 20, [:], deleted: true))
                == [.applied(version: 2)])
        let since4 = book.page(personId: Self.ana, orgId: Self.org, role: FieldRoles.worker, since: PullCursor(position: 4), limit: 100, checkpoint: 5)
        #expect(since4.records.map(\.deleted) == [true] && !since4.full)
        #expect(Self.push(&book, 6, device: Self.tablet, person: Self.ana, Self.mutation(4, .expense, Self.expense, base: 1, at: 30, ["notes": "late edit"]))
                == [.refused("deleted on the server; drop your copy")], "an edit of a deleted record is answered, never wedged")

        book.forgetOld(now: Self.t0 + 31 * 86_400_000)
        #expect(book.record(Self.expense) == nil)
        let late = book.page(personId: Self.ana, orgId: Self.org, role: FieldRoles.worker, since: PullCursor(position: 4), limit: 100, checkpoint: 6)
        #expect(late.full && late.records.map(\.kind) == [.project], "away longer than deletions are kept: a full resync")
    }

    @Test func theFilesARecordNamesFollowItsChangesUntilItIsForgotten() {
        var book = Self.staffed()
        let (first, second) = (JSONValue.string(String(repeating: "ab", count: 32)), JSONValue.string(String(repeating: "cd", count: 32)))
        _ = Self.push(&book, 5, device: Self.phone, person: Self.ana, Self.mutation(3, .expense, Self.expense, base: 1, at: 20, ["receipt": first]))
        #expect(book.files == [String(repeating: "ab", count: 32): [FieldID(Self.expense)]])
        _ = Self.push(&book, 6, device: Self.phone, person: Self.ana, Self.mutation(4, .expense, Self.expense, base: 2, at: 30, ["receipt": second]))
        #expect(book.files == [String(repeating: "cd", count: 32): [FieldID(Self.expense)]], "a replaced receipt is no longer this record's")
        _ = Self.push(&book, 7, device: Self.phone, person: Self.ana, Self.mutation(5, .expense, Self.expense, base: 3, at: 40, [:], deleted: true))
        book.forgetOld(now: Self.t0 + 31 * 86_400_000)
        #expect(book.files.isEmpty, "a forgotten tombstone names no file")
    }

    /// Hole 4 of the authorization review: a worker of one company named another company's
    /// digest in a photo record, and could then read that company's photo. A digest is content
    /// addressing, not permission.
    @Test func aRecordCannotNameAFileItsCompanyNeverUploaded() {
        var book = Self.staffed()
        let theirs = String(repeating: "ef", count: 32)
        book.storedFiles["0a0a0a0a-0000-4000-8000-00000000beef"] = [theirs] // another company's upload
        let outcome = Self.push(&book, 5, device: Self.phone, person: Self.ana,
                                Self.mutation(3, .photo, "0f0f0f0f-0000-4000-8000-000000000003", base: 0, at: 0,
                                              ["projectId": .string(Self.project), "takenAt": "2026-11-19T08:00:00Z", "digest": .string(theirs)]))
        #expect(outcome == [.refused("digest names no file uploaded in your company: upload it first")])
        #expect(book.files[theirs] == nil)
        let receipt = Self.push(&book, 6, device: Self.phone, person: Self.ana, Self.mutation(4, .expense, Self.expense, base: 1, at: 20, ["receipt": .string(theirs)]))
        #expect(receipt == [.refused("receipt names no file uploaded in your company: upload it first")])
    }

    @Test func pagesEndBetweenSequencesAndTogetherHoldEverything() {
        // Three pushes of 400 photos (sequences 10, 11, 12) in pages of about 500: a page never
        // splits a sequence, so the first ends after 11 (802 records) and the second holds 12.
        var book = Self.staffed()
        for batch in 0..<3 {
            let photos = (0..<400).map { i in
                Self.mutation(1_000 + batch * 400 + i, .photo, Self.id(50_000 + batch * 400 + i), base: 0, at: 40,
                              ["projectId": .string(Self.project), "takenAt": "2026-11-19T09:00:00Z", "digest": .string(String(repeating: "cd", count: 32))])
            }
            let pushed = MutationsPushed(deviceId: Self.phone, personId: Self.ana, orgId: Self.org, role: FieldRoles.worker, mutations: photos)
            book.apply(pushed, sequence: UInt64(10 + batch), at: Self.t0)
        }
        var cursor = PullCursor(position: 0), seen: [String] = [], pages = 0
        while true {
            let page = book.page(personId: Self.ana, orgId: Self.org, role: FieldRoles.worker, since: cursor, limit: 500, checkpoint: 12)
            seen += page.records.map(\.id)
            pages += 1
            cursor = page.cursor
            if !page.more { break }
        }
        #expect(pages == 2 && Set(seen).count == seen.count && seen.count == 1 + 1 + 1_200)
        #expect(cursor == PullCursor(position: 12))
    }

    @Test func everyOrderOfEditsToOrdinaryFieldsGivesOneRecord() {
        let edits: [(device: String, person: String, mutation: FieldMutation)] = [
            (Self.phone, Self.ana, Self.mutation(3, .expense, Self.expense, base: 1, at: 30, ["notes": "a", "category": "fuel"])),
            (Self.tablet, Self.ana, Self.mutation(4, .expense, Self.expense, base: 1, at: 20, ["notes": "b"])),
            (Self.office, Self.manager, Self.mutation(5, .expense, Self.expense, base: 1, at: 25, ["category": "tools", "date": "2026-11-18"])),
            (Self.tablet, Self.ana, Self.mutation(6, .expense, Self.expense, base: 2, at: 40, ["receipt": .string(String(repeating: "ef", count: 32))])),
        ]
        func fold(_ order: [Int]) -> [String: JSONValue]? {
            var book = Self.staffed()
            for (n, i) in order.enumerated() {
                let e = edits[i]
                _ = Self.push(&book, UInt64(10 + n), device: e.device, person: e.person, role: e.person == Self.manager ? FieldRoles.manager : FieldRoles.worker, e.mutation)
            }
            return book.record(Self.expense)?.values
        }
        let expected = fold([0, 1, 2, 3])
        #expect(expected?["notes"] == "a" && expected?["category"] == "fuel" && expected?["date"] == "2026-11-18")
        var orders = 0
        for a in 0..<4 { for b in 0..<4 where b != a { for c in 0..<4 where c != a && c != b {
            let d = 6 - a - b - c
            #expect(fold([a, b, c, d]) == expected, "order \([a, b, c, d])")
            orders += 1
        } } }
        #expect(orders == 24)
    }

    @Test func timeOffTheSiteIsMarkedForReviewNotRefused() {
        var book = Self.staffed()
        // 0.001° of latitude is ~111 m: 105 m is inside 100 m + 10 m; 200 m with ±20 m is not.
        let near = Self.mutation(3, .timeEntry, Self.entry, base: 0, at: 0, ["projectId": .string(Self.project), "startTime": "2026-11-19T07:00:00Z",
                                                                              "startLatitude": .number(44.0805 + 0.000945), "startLongitude": .number(-103.231), "startAccuracy": 5])
        #expect(Self.push(&book, 5, device: Self.phone, person: Self.ana, near) == [.applied(version: 1)])
        #expect(book.record(Self.entry)?.review == [])
        _ = Self.push(&book, 6, device: Self.phone, person: Self.ana,
                      Self.mutation(4, .timeEntry, Self.entry, base: 1, at: 60, ["endTime": "2026-11-19T15:00:00Z", "endLatitude": .number(44.0805 + 0.0018),
                                                                                  "endLongitude": .number(-103.231), "endAccuracy": 20]))
        #expect(book.record(Self.entry)?.review.count == 1 && book.record(Self.entry)?.review.first?.hasPrefix("end 200 m from the site") == true,
                "\(book.record(Self.entry)?.review ?? [])")
    }

    @Test func aStoredBatchIsWrittenAndReadByHandWithoutLosingAValue() throws {
        let odd: [String: JSONValue] = ["amount": "1.50", "latitude": .number(44.0805), "radiusMeters": .integer(100), "notes": .null,
                                        "flag": .bool(true), "nested": .array([.integer(1), .object(["a": "b"])])]
        let pushed = MutationsPushed(deviceId: Self.phone, personId: Self.ana, orgId: Self.org, role: FieldRoles.worker, mutations: [
            Self.mutation(1, .expense, Self.expense, base: 0, at: 0, odd), Self.mutation(2, .photo, Self.expense, base: 3, at: 1, [:], deleted: true),
        ])
        let stored = try EventEnvelope(source: "test", data: pushed).encodeStored()
        #expect(try EventEnvelope<MutationsPushed>.decodeStored(stored).data == pushed, "a nested value (never valid, never lost) reads back too")
    }

    @Test func isoWeeks() throws {
        #expect(ISOWeek("2026-W48")?.start == Timestamp.millis("2026-11-23T00:00:00Z"))
        #expect(ISOWeek("2026-W01")?.start == Timestamp.millis("2025-12-29T00:00:00Z"))
        #expect(ISOWeek("2026-W53") != nil && ISOWeek("2027-W53") == nil, "2026 has 53 ISO weeks, 2027 52")
        #expect(ISOWeek(containing: Timestamp.millis("2027-01-01T12:00:00Z") ?? 0).description == "2026-W53")
        #expect(ISOWeek(containing: Timestamp.millis("2026-11-25T23:59:59Z") ?? 0).description == "2026-W48")
        for bad in ["2026-48", "2026-W00", "2026-W54", "20x6-W10", "2026-W1", ""] { #expect(ISOWeek(bad) == nil, "\(bad)") }
        let denver = try #require(TimeZone(identifier: "America/Denver"))
        #expect(ISOWeek("2026-W48")?.bounds(in: denver) == Timestamp.millis("2026-11-23T07:00:00Z").flatMap { from in
            Timestamp.millis("2026-11-30T07:00:00Z").map { from..<$0 } })
        #expect(ISOWeek("2026-W10")?.bounds(in: denver).count == 7 * 86_400_000 - 3_600_000, "the week clocks go forward is an hour short")
        #expect(ISOWeek(containing: Timestamp.millis("2026-11-30T03:00:00Z") ?? 0, in: denver).description == "2026-W48", "Sunday evening in Denver")
    }
}
