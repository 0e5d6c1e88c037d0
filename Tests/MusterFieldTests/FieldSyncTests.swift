import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterField
import MusterLog
import MusterPlatform
import MusterRuntime
import Testing

/// The field app over HTTP on a real log: a company, a manager and two workers signed in through
/// `/api/field/auth/login`, devices pushing offline edits and pulling.
@Suite("Field sync over HTTP: two devices offline, a conflict a manager decides, pulls, hostile input")
struct FieldSyncTests {
    struct Crew {
        var manager: String
        var ana: String
        var ben: String
        var anaId: String
        var benId: String
    }

    static let project = "5a5a5a5a-0000-4000-8000-000000000001"
    static let expense = "5b5b5b5b-0000-4000-8000-000000000001"
    static let entry = "5b5b5b5b-0000-4000-8000-000000000002"
    static let (office, phone, tablet) = ("5c5c5c5c-0000-4000-8000-000000000001", "5c5c5c5c-0000-4000-8000-000000000002",
                                          "5c5c5c5c-0000-4000-8000-000000000003")

    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    /// The company `acme-build`, its manager and workers, each signed in.
    static func crew(_ app: TestApp) async throws -> Crew {
        let people = People.shared(in: app.env.environment)
        try await people.createOrganisationPatiently(slug: "acme-build", app: "field", name: "Acme Build")
        var tokens: [String: String] = [:], ids: [String: String] = [:]
        for (name, role) in [("mia", "manager"), ("ana", "worker"), ("ben", "worker")] {
            let account = try await people.addPerson(People.Registration(orgSlug: "acme-build", email: "\(name)@acme.example", firstName: name.capitalized,
                                                                         lastName: "Field", phone: nil, password: "Hardhat-\(name)-2026", role: role))
            let login = try await app.request("/api/field/auth/login", method: .post,
                                              json: #"{"org_slug": "acme-build", "email": "\#(name)@acme.example", "password": "Hardhat-\#(name)-2026"}"#)
            #expect(login.status == .ok, "\(login.text)")
            tokens[name] = try #require(login.json["token"] as? String, "\(login.status): \(login.text)")
            ids[name] = account.personId
        }
        return Crew(manager: tokens["mia"] ?? "", ana: tokens["ana"] ?? "", ben: tokens["ben"] ?? "", anaId: ids["ana"] ?? "", benId: ids["ben"] ?? "")
    }

    /// Records that the company uploaded `digest` (as a finished upload does), so its records may name it.
    static func uploaded(_ app: TestApp, _ digest: String = String(repeating: "ab", count: 32), org slug: String = "acme-build") async throws {
        let people = People.shared(in: app.env.environment)
        let orgId = try #require(await people.runner.read { $0.orgBySlug[slug] })
        let stored = FileStored(digest: digest, orgId: orgId, personId: UUID().uuidString.lowercased(), size: 1, type: "image/jpeg")
        try await app.settled("field", at: try await app.log.append(stored).sequence)
    }

    static func mutation(_ entity: String, _ id: String, base: Int, at time: String, _ fields: String, mutationId: String = UUID().uuidString) -> String {
        #"{"mutationId": "\#(mutationId)", "entity": "\#(entity)", "id": "\#(id)", "baseVersion": \#(base), "fields": \#(fields), "changedAt": "\#(time)"}"#
    }

    static func batch(device: String, sentAt: String, _ mutations: [String]) -> String {
        #"{"deviceId": "\#(device)", "sentAt": "\#(sentAt)", "mutations": [\#(mutations.joined(separator: ","))]}"#
    }

    @discardableResult
    static func push(_ app: TestApp, _ token: String, _ body: String) async throws -> [[String: Any]] {
        let answer = try await app.request("/api/field/mutations", method: .post, headers: bearer(token), json: body)
        #expect(answer.status == .ok, "\(answer.text)")
        return answer.json["results"] as? [[String: Any]] ?? []
    }

    static func statuses(_ results: [[String: Any]]) -> [String] { results.map { $0["status"] as? String ?? "?" } }

    /// A manager's project near Rapid City with Ana on it.
    static func staffedProject(_ app: TestApp, _ crew: Crew, name: String = "Main St. bridge") async throws {
        let now = Timestamp.string(Date())
        let created = try await push(app, crew.manager, batch(device: office, sentAt: now, [
            mutation("project", project, base: 0, at: now, #"{"name": "\#(name)", "latitude": 44.0805, "longitude": -103.231, "startDate": "2026-11-01"}"#),
        ]))
        #expect(statuses(created) == ["applied"])
        let assigned = try await app.request("/api/field/projects/\(project)/members/\(crew.anaId)", method: .put, headers: bearer(crew.manager))
        #expect(assigned.status == .noContent, "\(assigned.text)")
        try await uploaded(app) // the photo the tests' records name
    }

    @Test func twoDevicesOfflineMeetAConflictTheManagerDecides() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let crew = try await Self.crew(app)
            try await Self.staffedProject(app, crew)
            let now = Date()
            // Ana's phone is two hours slow; its times are placed by its sentAt.
            let slow = { (seconds: Double) in Timestamp.string(now.addingTimeInterval(-7200 + seconds)) }
            let create = Self.batch(device: Self.phone, sentAt: slow(0), [
                Self.mutation("expense", Self.expense, base: 0, at: slow(-600),
                              #"{"projectId": "\#(Self.project.uppercased())", "amount": "42.50", "currency": "USD", "category": "fuel", "date": "2026-11-19"}"#),
            ])
            #expect(Self.statuses(try await Self.push(app, crew.ana, create)) == ["applied"])
            #expect(Self.statuses(try await Self.push(app, crew.ana, create)) == ["applied"], "a retry answers the same")
            #expect(try await app.log.read(filter: "events.field.device.*.pushed.v1").count == 2, "the retry stored nothing")

            // Both edit the amount offline from version 1: the manager's tablet syncs first.
            let managerEdit = try await Self.push(app, crew.manager, Self.batch(device: Self.tablet, sentAt: Timestamp.string(now), [
                Self.mutation("expense", Self.expense, base: 1, at: Timestamp.string(now.addingTimeInterval(-300)), #"{"amount": "40.00"}"#),
            ]))
            #expect(Self.statuses(managerEdit) == ["applied"])
            let anaEdit = try await Self.push(app, crew.ana, Self.batch(device: Self.phone, sentAt: slow(0), [
                Self.mutation("expense", Self.expense, base: 1, at: slow(-60), #"{"amount": "47.25", "notes": "receipt found"}"#),
            ]))
            #expect(Self.statuses(anaEdit) == ["conflict"], "\(anaEdit)")
            #expect((anaEdit.first?["server"] as? [String: Any])?["amount"] as? String == "40.00")
            let conflictId = try #require(anaEdit.first?["conflictId"] as? String)

            // Workers may not decide; the manager sees it and takes the device's amount.
            let refused = try await app.request("/api/field/conflicts/\(conflictId)/resolve", method: .post, headers: Self.bearer(crew.ana),
                                                json: #"{"decision": "takeDevice"}"#)
            #expect(refused.status == .forbidden)
            let open = try await app.request("/api/field/conflicts", headers: Self.bearer(crew.manager))
            #expect((open.json["conflicts"] as? [[String: Any]])?.map { $0["conflictId"] as? String } == [conflictId], "\(open.text)")
            let decided = try await app.request("/api/field/conflicts/\(conflictId)/resolve", method: .post, headers: Self.bearer(crew.manager),
                                                json: #"{"decision": "edit", "values": {"amount": "46.00"}}"#)
            #expect(decided.status == .noContent, "\(decided.text)")

            // Both devices pull the result.
            for token in [crew.ana, crew.manager] {
                let pulled = try await app.request("/api/field/changes?since=0", headers: Self.bearer(token))
                let records = pulled.json["records"] as? [[String: Any]] ?? []
                let expense = records.first { $0["id"] as? String == Self.expense }
                #expect((expense?["fields"] as? [String: Any])?["amount"] as? String == "46.00", "\(pulled.text)")
                #expect((expense?["fields"] as? [String: Any])?["notes"] as? String == "receipt found")
                #expect(pulled.json["full"] as? Bool == true && pulled.json["more"] as? Bool == false)
            }
            // Ben is on no project: he sees nothing of it.
            let ben = try await app.request("/api/field/changes", headers: Self.bearer(crew.ben))
            #expect((ben.json["records"] as? [[String: Any]])?.isEmpty == true, "\(ben.text)")

            // The live fold took the pushes as this process appended them (the retry stored none);
            // a rebuild reads them as stored and comes to the same book.
            let runner = app.env.environment.projections.runner(FieldProjection.self)
            #expect(await runner.foldedFromAppends == 4)
            let live = await runner.current()
            let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("field-\(UUID())"))
            defer { try? FileManager.default.removeItem(at: store.directory) }
            let rebuilt = try await ProjectionRunner<FieldProjection>.rebuild(log: app.log, store: store, logger: app.env.environment.logger) { _ in }
            #expect(rebuilt.checkpoint == live.checkpoint && rebuilt.state == live.state)
        }
    }

    @Test func aPullSinceACursorHasOnlyWhatChangedAndDeletions() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let crew = try await Self.crew(app)
            try await Self.staffedProject(app, crew)
            let now = Timestamp.string(Date())
            _ = try await Self.push(app, crew.ana, Self.batch(device: Self.phone, sentAt: now, [
                Self.mutation("timeEntry", Self.entry, base: 0, at: now, #"{"projectId": "\#(Self.project)", "startTime": "\#(now)", "startSource": "geofence"}"#),
            ]))
            let first = try await app.request("/api/field/changes", headers: Self.bearer(crew.ana))
            let cursor = try #require(first.json["cursor"] as? String, "\(first.status): \(first.text)")
            #expect((first.json["records"] as? [[String: Any]])?.count == 2)
            let deleted = try await Self.push(app, crew.ana, Self.batch(device: Self.phone, sentAt: now, [
                #"{"mutationId": "\#(UUID().uuidString)", "entity": "timeEntry", "id": "\#(Self.entry)", "baseVersion": 1, "fields": {}, "deleted": true, "changedAt": "\#(now)"}"#,
            ]))
            #expect(Self.statuses(deleted) == ["applied"])
            let since = try await app.request("/api/field/changes?since=\(cursor)", headers: Self.bearer(crew.ana))
            let records = since.json["records"] as? [[String: Any]] ?? []
            #expect(records.count == 1 && records.first?["deleted"] as? Bool == true && since.json["full"] as? Bool == false, "\(since.text)")
        }
    }

    @Test func hostileInputGetsClearAnswersAndStoresNothingBad() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let crew = try await Self.crew(app)
            try await Self.staffedProject(app, crew)
            let now = Timestamp.string(Date())
            let before = try await app.log.read(filter: "events.field.>").count

            #expect(try await app.request("/api/field/mutations", method: .post, json: Self.batch(device: Self.phone, sentAt: now, [])).status == .unauthorized)
            #expect(try await app.request("/api/field/changes", headers: Self.bearer("not.a.token")).status == .unauthorized)
            #expect(try await app.request("/api/field/mutations", method: .post, headers: Self.bearer(crew.ana), json: #"{"deviceId": "#).status == .badRequest)
            let huge = Self.batch(device: Self.phone, sentAt: now, [String](repeating: Self.mutation("photo", Self.entry, base: 0, at: now,
                #"{"caption": "\#(String(repeating: "x", count: 4_000))"}"#), count: 300))
            #expect(try await app.request("/api/field/mutations", method: .post, headers: Self.bearer(crew.ana), json: huge).status == .contentTooLarge)
            #expect(try await app.request("/api/field/mutations", method: .post, headers: Self.bearer(crew.ana),
                                          json: Self.batch(device: "phone", sentAt: now, [Self.mutation("photo", Self.entry, base: 0, at: now, "{}")])).status == .unprocessableContent)
            #expect(try await app.request("/api/field/changes?since=abc", headers: Self.bearer(crew.ana)).status == .unprocessableContent)
            #expect(try await app.request("/api/field/changes?limit=100000", headers: Self.bearer(crew.ana)).status == .unprocessableContent)
            #expect(try await app.request("/api/field/settings", method: .put, headers: Self.bearer(crew.ana),
                                          json: #"{"importantFields": [], "importantOnceApproved": [], "tombstoneDays": 5}"#).status == .forbidden)
            #expect(try await app.log.read(filter: "events.field.>").count == before, "nothing stored")

            // One batch, each mutation broken its own way, and one good one: each gets its own answer.
            let photo = UUID().uuidString
            let results = try await Self.push(app, crew.ana, Self.batch(device: Self.phone, sentAt: now, [
                #"{"entity": "photo", "id": "\#(photo)", "baseVersion": 0, "fields": {}, "changedAt": "\#(now)"}"#,
                Self.mutation("invoice", photo, base: 0, at: now, #"{"amount": "1"}"#),
                Self.mutation("photo", photo, base: 0, at: now, #"{"workerId": "\#(crew.anaId)"}"#),
                Self.mutation("expense", UUID().uuidString, base: 0, at: now,
                              #"{"projectId": "\#(Self.project)", "amount": "1e9", "currency": "USD", "category": "x", "date": "2026-11-19"}"#),
                Self.mutation("photo", photo, base: 0, at: "2020-01-01T00:00:00Z", #"{"projectId": "\#(Self.project)", "takenAt": "\#(now)", "digest": "\#(String(repeating: "ab", count: 32))"}"#),
                Self.mutation("project", Self.project, base: 1, at: now, #"{"name": "taken over"}"#),
                Self.mutation("photo", photo, base: 0, at: now, #"{"projectId": "\#(Self.project)", "takenAt": "\#(now)", "digest": "\#(String(repeating: "ab", count: 32))", "caption": null}"#),
            ]))
            #expect(Self.statuses(results) == ["refused", "refused", "refused", "refused", "refused", "refused", "applied"], "\(results)")
            #expect(results.allSatisfy { $0["status"] as? String != "refused" || !(($0["reason"] as? String) ?? "").isEmpty })
        }
    }

    @Test func theTimesheetAddsHoursPerWeekAndItsCSVRunsNoFormula() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let crew = try await Self.crew(app)
            try await Self.staffedProject(app, crew, name: "=HYPERLINK(\\\"http://evil.example\\\")")
            let now = Timestamp.string(Date())
            // Monday of 2026-W48, 07:00 to 15:30, ended 300 m from the site.
            _ = try await Self.push(app, crew.ana, Self.batch(device: Self.phone, sentAt: now, [
                Self.mutation("timeEntry", Self.entry, base: 0, at: now,
                              #"{"projectId": "\#(Self.project)", "startTime": "2026-11-23T07:00:00Z", "endTime": "2026-11-23T15:30:00Z", "endLatitude": 44.0832, "endLongitude": -103.231, "endAccuracy": 10}"#),
            ]))
            let approve = try await app.request("/api/field/time-entries/\(Self.entry)/approve", method: .post, headers: Self.bearer(crew.manager))
            #expect(approve.status == .noContent, "\(approve.text)")
            let sheet = try await app.request("/api/field/timesheet?week=2026-W48", headers: Self.bearer(crew.manager))
            let total = (sheet.json["totals"] as? [[String: Any]])?.first
            #expect(total?["hours"] as? Double == 8.5 && total?["toReview"] as? Int == 1, "\(sheet.text)")
            let csv = try await app.request("/api/field/timesheet.csv?week=2026-W48", headers: Self.bearer(crew.manager))
            #expect(csv.status == .ok && csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.text.contains(#""'=HYPERLINK(""http://evil.example"")""#), "\(csv.text)")
            #expect(csv.text.contains(#""8.50","yes","end 300 m from the site"#) && csv.text.contains(#""Ana Field""#), "\(csv.text)")
            #expect(try await app.request("/api/field/timesheet?week=2026-W99", headers: Self.bearer(crew.manager)).status == .unprocessableContent)
            #expect(sheet.json["timeZone"] as? String == "UTC")

            // A Sunday evening shift in Rapid City is Monday in UTC: in the company's zone it counts in the week it was worked.
            _ = try await Self.push(app, crew.ana, Self.batch(device: Self.phone, sentAt: now, [
                Self.mutation("timeEntry", UUID().uuidString.lowercased(), base: 0, at: now,
                              #"{"projectId": "\#(Self.project)", "startTime": "2026-11-30T01:00:00Z", "endTime": "2026-11-30T03:00:00Z"}"#),
            ]))
            func hours(_ week: String) async throws -> Double? {
                let sheet = try await app.request("/api/field/timesheet?week=\(week)", headers: Self.bearer(crew.manager))
                return ((sheet.json["totals"] as? [[String: Any]])?.first?["hours"] as? Double) ?? 0
            }
            let (utc48, utc49) = (try await hours("2026-W48"), try await hours("2026-W49"))
            #expect(utc48 == 8.5 && utc49 == 2, "in UTC, Sunday evening is next week's Monday")
            let zoned = #"{"importantFields": ["expense.amount"], "importantOnceApproved": ["timeEntry.endTime", "timeEntry.startTime"], "tombstoneDays": 30, "timeZone": "America/Denver"}"#
            #expect(try await app.request("/api/field/settings", method: .put, headers: Self.bearer(crew.manager), json: zoned).status == .ok)
            let (local48, local49) = (try await hours("2026-W48"), try await hours("2026-W49"))
            #expect(local48 == 10.5 && local49 == 0, "Monday 00:00 in Denver is 07:00 UTC")
            let nowhere = zoned.replacingOccurrences(of: "America/Denver", with: "Mars/Olympus_Mons")
            #expect(try await app.request("/api/field/settings", method: .put, headers: Self.bearer(crew.manager), json: nowhere).status == .unprocessableContent)
        }
    }
}
