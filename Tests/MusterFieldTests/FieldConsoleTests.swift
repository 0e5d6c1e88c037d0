import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterField
import MusterPlatform
import MusterRuntime
import MusterStandIns
import Hummingbird
import MusterTesting
import Testing

/// The managers' console at `/field`: a manager signs in with their account, approves two flagged
/// time entries at once, decides a conflict side by side while a worker's phone keeps syncing (and
/// the phone then pulls the decision), creates and edits a project's geofence and crew, and
/// downloads the week's timesheet. Workers and other companies' managers get nothing of it.
@Suite("Field managers' console")
struct FieldConsoleTests {
    typealias Sync = FieldSyncTests

    /// The company's world as the tests need it: a staffed project, two time entries Ana started
    /// far from the site (flagged) and one on it, and a conflict about an expense's amount.
    struct World {
        var crew: FieldSyncTests.Crew
        var flagged: [String]
        var onSite: String
        var conflictId: String
    }

    static func world(_ app: TestApp) async throws -> World {
        let crew = try await Sync.crew(app)
        try await Sync.staffedProject(app, crew)
        let now = Date()
        let at = { (seconds: Double) in Timestamp.string(now.addingTimeInterval(seconds)) }
        let (far1, far2, near) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        func entry(_ id: String, _ lat: Double, _ start: Double) -> String {
            Sync.mutation("timeEntry", id, base: 0, at: at(start), #"""
            {"projectId": "\#(Sync.project)", "startTime": "\#(at(start))", "endTime": "\#(at(start + 3600))", "startLatitude": \#(lat), "startLongitude": -103.231, "startAccuracy": 5, "startSource": "manual"}
            """#)
        }
        let pushed = try await Sync.push(app, crew.ana, Sync.batch(device: Sync.phone, sentAt: at(0), [
            entry(far1, 44.2, -30_000), entry(far2, 44.3, -20_000), entry(near, 44.0805, -10_000),
        ]))
        #expect(Sync.statuses(pushed) == ["applied", "applied", "applied"], "\(pushed)")
        _ = try await Sync.push(app, crew.ana, Sync.batch(device: Sync.phone, sentAt: at(0), [
            Sync.mutation("expense", Sync.expense, base: 0, at: at(-600),
                          #"{"projectId": "\#(Sync.project)", "amount": "42.50", "currency": "USD", "category": "fuel", "date": "2026-11-19"}"#),
        ]))
        _ = try await Sync.push(app, crew.manager, Sync.batch(device: Sync.tablet, sentAt: at(0), [
            Sync.mutation("expense", Sync.expense, base: 1, at: at(-300), #"{"amount": "40.00"}"#),
        ]))
        let anaEdit = try await Sync.push(app, crew.ana, Sync.batch(device: Sync.phone, sentAt: at(0), [
            Sync.mutation("expense", Sync.expense, base: 1, at: at(-60), #"{"amount": "47.25"}"#),
        ]))
        let conflictId = try #require(anaEdit.first?["conflictId"] as? String, "\(anaEdit)")
        return World(crew: crew, flagged: [far1, far2], onSite: near, conflictId: conflictId)
    }

    /// Signs `browser` in as Mia, the manager.
    static func signIn(_ browser: PageVisit) async throws {
        _ = try await browser.get("/field")
        let signedIn = try await browser.post("/field/login", [("org", "acme-build"), ("email", "mia@acme.example"), ("password", "Hardhat-mia-2026")])
        #expect(signedIn.status == .seeOther, "\(signedIn.text.prefix(400))")
    }

    @Test func aManagerApprovesDecidesPlansAndDownloadsThroughTheForms() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let world = try await Self.world(app)
            let browser = PageVisit(app)
            let form = try await browser.get("/field")
            #expect(form.status == .unauthorized && form.text.contains("name=\"org\""))
            // A worker's account does not open the managers' pages.
            let worker = try await browser.post("/field/login", [("org", "acme-build"), ("email", "ana@acme.example"), ("password", "Hardhat-ana-2026")])
            #expect(worker.status == .unauthorized && worker.text.contains("may not use these pages"))
            try await Self.signIn(browser)

            let approvals = try await browser.get("/field")
            #expect(approvals.status == .ok && approvals.text.contains("3 time entries wait") && approvals.text.contains("<b>2</b> flagged"))
            for id in world.flagged + [world.onSite] { #expect(approvals.text.contains("value=\"\(id)\"")) }
            #expect(try await browser.post("/field/time-entries/approve", world.flagged.map { ("entries[]", $0) }, token: false).status == .forbidden)
            let approved = try await browser.post("/field/time-entries/approve", world.flagged.map { ("entries[]", $0) })
            #expect(approved.status == .seeOther && approved.headers[.location]?.contains("Approved%202") == true)
            let events = try await app.log.read(filter: "events.field.entry.*.approved.v1").compactMap { $0.payload as? TimeEntryApproved }
            #expect(Set(events.map(\.entryId)) == Set(world.flagged))
            #expect(try await browser.get("/field").text.contains("1 time entry waits"))
            // The one left is sent back with why: the worker's phone sees it; their next change clears it.
            #expect(try await browser.post("/field/time-entries/reject", [("entries[]", world.onSite)]).status == .unprocessableContent, "not without why")
            #expect(try await browser.post("/field/time-entries/reject", [("entries[]", world.onSite), ("reason", "Lunch was not an hour")]).status == .seeOther)
            #expect(try await browser.get("/field").text.contains("sent back: Lunch was not an hour"))
            func onSiteEntry() async throws -> [String: Any]? {
                let pulled = try await app.request("/api/field/changes?since=0", headers: Sync.bearer(world.crew.ana))
                return (pulled.json["records"] as? [[String: Any]])?.first { $0["id"] as? String == world.onSite }
            }
            let sentBack = try await onSiteEntry()
            #expect(sentBack?["rejection"] as? String == "Lunch was not an hour", "\(String(describing: sentBack))")
            let version = try #require(sentBack?["version"] as? Int)
            let fixed = Timestamp.string(Date())
            _ = try await Sync.push(app, world.crew.ana, Sync.batch(device: Sync.phone, sentAt: fixed, [
                Sync.mutation("timeEntry", world.onSite, base: version, at: fixed, #"{"notes": "took 30 minutes"}"#),
            ]))
            let changed = try await onSiteEntry()
            #expect(changed?["rejection"] == nil || changed?["rejection"] is NSNull, "\(String(describing: changed))")
            // The app's API says the same; an approved entry cannot be sent back.
            let api = try await app.request("/api/field/time-entries/\(world.flagged[0])/reject", method: .post, headers: Sync.bearer(world.crew.manager),
                                            json: #"{"reason": "late"}"#)
            #expect(api.status == .unprocessableContent && api.errorMessage.contains("approved already"))
            #expect(try await app.request("/api/field/time-entries/\(world.onSite)/reject", method: .post, headers: Sync.bearer(world.crew.ana),
                                          json: #"{"reason": "x"}"#).status == .forbidden, "workers decide no time")

            let conflicts = try await browser.get("/field/conflicts")
            #expect(conflicts.text.contains("40.00") && conflicts.text.contains("47.25") && conflicts.text.contains("Ana Field"))
            let decided = try await browser.post("/field/conflicts/\(world.conflictId)/resolve", [("decision", "takeDevice")])
            #expect(decided.status == .seeOther)
            let pulled = try await app.request("/api/field/changes?since=0", headers: Sync.bearer(world.crew.ana))
            let expense = (pulled.json["records"] as? [[String: Any]])?.first { $0["id"] as? String == Sync.expense }
            #expect((expense?["fields"] as? [String: Any])?["amount"] as? String == "47.25", "the phone pulls the decision")
            #expect(try await browser.get("/field/conflicts").text.contains("No conflict waits"))

            let created = try await browser.post("/field/projects", [("name", "Depot roof"), ("latitude", "44.07"), ("longitude", "-103.2"),
                                                                     ("radiusMeters", "150"), ("startDate", "2026-12-07")])
            #expect(created.status == .seeOther, "\(created.text.prefix(300))")
            let projectPath = try #require(created.headers[.location]?.split(separator: "?").first.map(String.init))
            let refused = try await browser.post(projectPath, [("name", "Depot roof"), ("radiusMeters", "9000")])
            #expect(refused.status == .unprocessableContent && refused.text.contains("radiusMeters"))
            #expect(try await browser.post(projectPath, [("name", "Depot roof"), ("latitude", "44.07"), ("longitude", "-103.2"),
                                                        ("radiusMeters", "300"), ("startDate", "2026-12-07")]).status == .seeOther)
            let project = try await browser.get(projectPath)
            #expect(project.text.contains("value=\"300\"") && project.text.contains("Ben Field"))
            #expect(try await browser.post(projectPath + "/members", [("person", world.crew.benId)]).status == .seeOther)
            #expect(try await browser.get(projectPath).text.contains("Take Ben Field off the project"))
            #expect(try await browser.post(projectPath + "/members/\(world.crew.benId)/remove").status == .seeOther)

            let csv = try await browser.get("/field/timesheet.csv")
            #expect(csv.status == .ok && csv.headers[.contentType]?.hasPrefix("text/csv") == true && csv.text.hasPrefix("\"week\",\"worker\""))
            let expenses = try await browser.get("/field/expenses.csv?week=2026-W47")
            #expect(expenses.status == .ok && expenses.text.contains("\"47.25\"") && expenses.text.contains("\"fuel\"") && expenses.text.contains("Ana Field"),
                    "\(expenses.text)")
            #expect(try await browser.get("/field/expenses.csv?week=2026-W12").text.contains("fuel") == false)
            #expect(try await browser.get("/field/activity").text.contains("http-equiv=\"refresh\""))

            // Another company's manager: every one of Acme's things is 404.
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "other-build", app: "field", name: "Other Build")
            _ = try await people.addPerson(People.Registration(orgSlug: "other-build", email: "oz@other.example", firstName: "Oz", lastName: "Other",
                                                               phone: nil, password: "Hardhat-oz-2026", role: "manager"))
            let other = PageVisit(app)
            _ = try await other.get("/field")
            #expect(try await other.post("/field/login", [("org", "other-build"), ("email", "oz@other.example"), ("password", "Hardhat-oz-2026")]).status == .seeOther)
            #expect(try await other.get(projectPath).status == .notFound)
            _ = try await other.get("/field")
            #expect(try await other.post("/field/time-entries/approve", [("entries[]", world.onSite)]).status == .notFound)
            #expect(try await other.post("/field/projects/\(Sync.project)/members", [("person", world.crew.benId)]).status == .notFound)
            #expect(try await other.get("/field").text.contains("0 time entries wait"))
        }
    }

    /// The crew: a manager invites by email from the console; the email's code makes the
    /// worker's account in the company (once), and the worker is signed in.
    @Test func aManagerInvitesAWorkerWhoJoinsWithTheEmailsCode() async throws {
        let recorder = SMSStandIn.Recorder()
        try await Application(router: SMSStandIn.router(recorder: recorder)).test(.live) { standIn in
            let port = try #require(standIn.port)
            try await apps.withTestApp(["ingest"], configure: {
                $0[InvitationSettings.self].mailURL = "http://127.0.0.1:\(port)"
                $0[InvitationSettings.self].mailKey = "SG.test"
            }) { app in
                _ = try await Sync.crew(app)
                let browser = PageVisit(app)
                try await Self.signIn(browser)
                #expect(try await browser.get("/field/crew").text.contains("Ana Field"))
                #expect(try await browser.post("/field/crew/invite", [("email", "new.hand@acme.example"), ("role", "worker")], token: false).status == .forbidden)
                let sent = try await browser.post("/field/crew/invite", [("email", "new.hand@acme.example"), ("role", "worker")])
                #expect(sent.status == .seeOther, "\(sent.text.prefix(300))")
                let again = try await browser.post("/field/crew/invite", [("email", "new.hand@acme.example"), ("role", "worker")])
                #expect(again.status == .unprocessableContent && again.text.contains("pending already"))
                let mail = try #require(await recorder.messages.last { $0.to == "new.hand@acme.example" })
                #expect(mail.subject == "Join Acme Build on Field")
                let code = try #require(mail.body.range(of: "Your invite code: ").map { String(mail.body[$0.upperBound...].prefix { $0 != "." && $0 != " " }) })

                let join = #"{"code": "\#(code)", "first_name": "Nia", "last_name": "New", "email": "new.hand@acme.example", "password": "Hardhat-nia-2026"}"#
                let joined = try await app.request("/api/field/auth/join", method: .post, json: join)
                #expect(joined.status == .created, "\(joined.text)")
                let token = try #require(joined.json["token"] as? String)
                #expect(try await app.request("/api/field/settings", headers: Sync.bearer(token)).status == .ok, "a worker of the company")
                #expect(try await app.request("/api/field/auth/join", method: .post, json: join).status == .notFound, "a code works once")
                #expect(try await app.request("/api/field/auth/join", method: .post,
                                              json: #"{"code": "not-a-real-code", "first_name": "X", "last_name": "Y", "email": "x@acme.example", "password": "Hardhat-x-2026"}"#).status == .notFound)
                #expect(try await app.request("/api/pop/auth/join", method: .post, json: join).status == .notFound, "PoP takes no invitations to join")
                #expect(try await browser.get("/field/crew").text.contains("Nia New"))
            }
        }
    }

    /// Every field a manager fills in has a name a screen reader can say.
    func expectLabelled(_ browser: Browser, _ page: String) async throws {
        let unlabelled = try await browser.unlabelledFields()
        #expect(unlabelled.isEmpty, "fields of the \(page) page without a label: \(unlabelled)")
    }

    @Test(.enabled(if: Browser.available, "needs Debian's chromium and chromium-driver (make test installs them)"))
    func aManagerApprovesTwoFlaggedEntriesAndDecidesAConflictWhileAPhoneSyncs() async throws {
        try await apps.withTestApp(["ingest"], live: true) { app in
            let port = try #require(app.client.port)
            let site = "http://127.0.0.1:\(port)"
            let world = try await Self.world(app)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Ana's phone keeps syncing notes on the on-site entry while the manager works.
                group.addTask {
                    var version = 1
                    while !Task.isCancelled {
                        let now = Timestamp.string(Date())
                        let results = try await Sync.push(app, world.crew.ana, Sync.batch(device: Sync.phone, sentAt: now, [
                            Sync.mutation("timeEntry", world.onSite, base: version, at: now, #"{"notes": "synced at \#(now)"}"#),
                        ]))
                        version = (results.first?["version"] as? Int) ?? version
                        try await Task.sleep(for: .milliseconds(500))
                    }
                }
                try await Browser.with("field-console") { browser in
                    try await browser.open("\(site)/field")
                    try await browser.keep("sign-in")
                    try await expectLabelled(browser, "sign-in")
                    try await browser.type("acme-build", into: "#signin-org")
                    try await browser.type("mia@acme.example", into: "#signin-email")
                    try await browser.type("Hardhat-mia-2026", into: "#signin-password")
                    try await browser.click("form[action='/field/login'] button")
                    try await browser.waitFor(text: "3 time entries wait")
                    try await browser.keep("approvals")
                    try await expectLabelled(browser, "approvals")
                    for id in world.flagged { try await browser.click("#entry-\(id)") }
                    try await browser.click("form[action='/field/time-entries/approve'] button")
                    try await browser.waitFor(text: "Approved 2 time entries")
                    try await browser.keep("approved")

                    try await browser.click("a[href='/field/conflicts']")
                    try await browser.waitFor(text: "47.25")
                    try await browser.keep("conflict")
                    try await browser.click("form[action='/field/conflicts/\(world.conflictId)/resolve']:has(input[value=takeDevice]) button")
                    try await browser.waitFor(text: "Took the phone")
                    try await browser.keep("decided")

                    try await browser.click("a[href='/field/activity']")
                    try await browser.waitFor(text: "timeEntry")
                    try await browser.keep("live")
                }
                group.cancelAll()
            }
            let approved = try await app.log.read(filter: "events.field.entry.*.approved.v1").compactMap { $0.payload as? TimeEntryApproved }
            #expect(Set(approved.map(\.entryId)) == Set(world.flagged))
            let pulled = try await app.request("/api/field/changes?since=0", headers: Sync.bearer(world.crew.ana))
            let expense = (pulled.json["records"] as? [[String: Any]])?.first { $0["id"] as? String == Sync.expense }
            #expect((expense?["fields"] as? [String: Any])?["amount"] as? String == "47.25", "the phone sees the decision")
        }
    }
}
