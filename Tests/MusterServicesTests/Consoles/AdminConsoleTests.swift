import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import Synchronization
import Testing

/// The operator console (`/admin`): signed in with a platform admin key, it issues a key (shown
/// once) that then works, revokes it (it then stops working), and hands a dead letter back to the
/// processor that filed it once the cause is fixed. Over HTTP with the forms' tokens, and again in
/// a real headless Chromium by typing and clicking (screenshots in
/// `.build/test-output/screenshots/admin-console/`).
@Suite("The operator console")
struct AdminConsoleTests {
    /// A processor that fails on the keys labelled `flaky` until `fixed`: a dead letter with a cause
    /// that an operator can fix.
    final class FlakyProcessor: Sendable {
        let fixed = Mutex(false)
        let handled = Mutex(0)

        func make(_ log: EventLog) -> EventProcessor {
            var processor = EventProcessor(name: "console-test", filterSubjects: ["events.platform.apikey.*.issued.v1"], log: log,
                                           logger: Logger(label: "console-test")) { event in
                guard (event.payload as? APIKeyIssued)?.label == "flaky" else { return }
                guard self.fixed.withLock({ $0 }) else { throw Refused() }
                self.handled.withLock { $0 += 1 }
            }
            processor.maxDeliveries = 1
            return processor
        }

        struct Refused: Error, CustomStringConvertible { var description: String { "the mail relay refused (test)" } }
    }

    /// Files one dead letter through a real processor on the app's log, and registers the processor
    /// with the process, as a composed one is.
    func deadLetter(_ app: TestApp, _ flaky: FlakyProcessor, in group: inout ThrowingTaskGroup<Void, any Error>) async throws -> UInt64 {
        let processor = flaky.make(app.log)
        DeadLetterReplays.shared(in: app.env.environment).register(processor)
        group.addTask { await processor.runUntilCancelled() }
        var (_, issued) = issuedKey(app: "opl", scopes: ["read:mobile"])
        issued.label = "flaky"
        let origin = try await app.log.append(issued).sequence
        try await eventually("the dead letter", timeout: .seconds(20)) {
            (try? await app.log.jetStream.streamInfo("DLQ").state.messages) ?? 0 > 0
        }
        return origin
    }

    /// Every template parses (a broken one would stop a process at start), and a folder without
    /// the shell is refused with the setting's name.
    @Test func theTemplatesParseAndAMissingFolderIsRefused() async throws {
        let loaded = try await PageTemplates(directory: "deploy/templates").load()
        for name in ["shell", "signin", "report", "moderation/queue", "moderation/action", "moderation/snapshot", "admin/overview", "admin/keys", "admin/people", "admin/dead-letters", "admin/dead-letter",
                     "field/approvals", "field/conflicts", "field/projects", "field/project", "field/activity",
                     "offleash/today", "offleash/week", "offleash/payments", "offleash/services", "offleash/people"] {
            #expect(loaded.contains(name), "\(name).mustache")
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-templates-\(UUID().uuidString)").path
        await #expect(throws: PageTemplates.LoadError.self) { try await PageTemplates(directory: missing).load() }
    }

    @Test func anOperatorIssuesAKeyRevokesItAndReplaysADeadLetter() async throws {
        try await apps.withTestApp { app in
            let admin = try await app.key(app: "platform", [PlatformRoutes.adminScope])
            let notAdmin = try await app.key(app: "opl", ["read:mobile"])
            let browser = PageVisit(app)
            let signIn = try await browser.get("/admin")
            #expect(signIn.status == .unauthorized && signIn.text.contains("action=\"/admin/login\""))
            #expect(try await browser.post("/admin/login", [("key", admin)], token: false).status == .forbidden)
            #expect(try await browser.post("/admin/login", [("key", notAdmin)]).status == .unauthorized)
            #expect(try await browser.post("/admin/login", [("key", admin)]).status == .seeOther)
            let overview = try await browser.get("/admin")
            #expect(overview.status == .ok && overview.text.contains("EVENTS") && overview.text.contains("keys"))
            #expect(await browser.cookies["muster_session"] != nil)
            let notifications = try await browser.get("/admin/notifications")
            #expect(notifications.status == .ok && notifications.text.contains("pushes asked for"))
            // A fold rebuilt from the log beside the running one, which then loads it.
            let rebuilt = try await browser.post("/admin/projections/keys/rebuild")
            #expect(rebuilt.status == .seeOther && rebuilt.headers[.location]?.contains("Rebuilt%20keys") == true, "\(rebuilt.text.prefix(200))")
            #expect(try await browser.post("/admin/projections/nothing/rebuild").status == .notFound)

            _ = try await browser.get("/admin/keys")
            #expect(try await browser.post("/admin/keys", [("app", "opl"), ("scopes", "read:mobile")], token: false).status == .forbidden)
            let wrongScope = try await browser.post("/admin/keys", [("app", "opl"), ("scopes", "admin:platform")])
            #expect(wrongScope.status == .unprocessableContent && wrongScope.text.contains("may not carry admin:platform"))
            let issued = try await browser.post("/admin/keys", [("app", "opl"), ("scopes", "read:mobile"), ("label", "console test")])
            #expect(issued.status == .created)
            let key = try #require(issued.text.range(of: #"id="issued-key">"#).map { String(issued.text[$0.upperBound...].prefix { $0 != "<" }) })
            let keyId = try #require(issued.text.range(of: "The new key ").map { String(issued.text[$0.upperBound...].prefix { $0 != "<" }) })
            try await eventually("the new key works") { try await app.request("/api/platform/whoami", key: key).status == .ok }
            #expect(try await browser.get("/admin/keys").text.contains(key) == false, "a key is shown once")

            let revoked = try await browser.post("/admin/keys/\(keyId)/revoke", [("reason", "test over")])
            #expect(revoked.status == .seeOther)
            try await eventually("the key stops working") { try await app.request("/api/platform/whoami", key: key).status == .unauthorized }
            let revokedEvent = try #require(try await app.log.read(filter: "events.platform.apikey.\(keyId).revoked.v2").first?.payload as? APIKeyRevoked)
            #expect(revokedEvent.reason == "test over" && revokedEvent.revokedBy.hasPrefix("console:"))
            #expect(try await browser.post("/admin/keys/key_0000000000000000/revoke", []).status == .notFound)

            // People: added with a role of the organisation's app; forgotten only when confirmed.
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "console-walks", app: "offleash", name: "Console walks")
            _ = try await browser.get("/admin/people")
            let badRole = try await browser.post("/admin/people", [("org", "console-walks"), ("role", "moderator"), ("email", "kim@example.com"),
                                                                    ("firstName", "Kim"), ("lastName", "K"), ("password", "Walkies2026")])
            #expect(badRole.status == .unprocessableContent, "\(badRole.text.prefix(300))")
            let added = try await browser.post("/admin/people", [("org", "console-walks"), ("role", "walker"), ("email", "kim@example.com"),
                                                                 ("firstName", "Kim"), ("lastName", "Kerb"), ("password", "Walkies2026")])
            #expect(added.status == .seeOther)
            let personId = try #require(try await people.personId(orgSlug: "console-walks", email: "kim@example.com"))
            #expect(try await browser.get("/admin/people").text.contains("Kim Kerb"))
            // Another role, a suspension and a reinstatement: each ends the sessions it changes.
            func login() async throws -> TestResponse {
                try await app.request("/api/offleash/auth/login", method: .post,
                                      json: #"{"org_slug": "console-walks", "email": "kim@example.com", "password": "Walkies2026"}"#)
            }
            let walkerToken = try #require(try await login().json["token"] as? String)
            #expect(try await browser.post("/admin/people/\(personId)/role", [("role", "moderator")]).status == .unprocessableContent)
            #expect(try await browser.post("/admin/people/\(personId)/role", [("role", "admin")]).status == .seeOther)
            #expect(try await app.request("/api/offleash/auth/validate", headers: [.authorization: "Bearer \(walkerToken)"]).status == .unauthorized,
                    "the walker's token ended with the role")
            let adminLogin = try await login()
            #expect((adminLogin.json["user"] as? [String: Any])?["role"] as? String == "admin", "\(adminLogin.text)")
            #expect(try await browser.post("/admin/people/\(personId)/suspend", [("reason", "")]).status == .unprocessableContent, "not without why")
            #expect(try await browser.post("/admin/people/\(personId)/suspend", [("reason", "Left for the winter")]).status == .seeOther)
            #expect(try await browser.get("/admin/people").text.contains("suspended: Left for the winter"))
            let refusedLogin = try await login()
            #expect(refusedLogin.status == .badRequest && refusedLogin.errorMessage.contains("suspended"))
            #expect(try await browser.post("/admin/people/\(personId)/reinstate").status == .seeOther)
            #expect(try await login().status == .ok)
            let changes = try await app.log.read(filter: "events.platform.person.\(personId).>").map { $0.type.description }
            #expect(changes == ["platform.person.reassigned.v1", "platform.person.suspended.v1", "platform.person.reinstated.v1"], "\(changes)")
            #expect(try await browser.post("/admin/people/\(personId)/forget").status == .unprocessableContent, "not without the box ticked")
            #expect(try await browser.post("/admin/people/\(personId)/forget", [("confirm", "yes")]).status == .seeOther)
            #expect(try await browser.get("/admin/people").text.contains("Kim Kerb") == false)
            #expect(try await browser.post("/admin/people/00000000-0000-4000-8000-000000000000/forget", [("confirm", "yes")]).status == .notFound)

            let flaky = FlakyProcessor()
            try await withThrowingTaskGroup(of: Void.self) { group in
                let origin = try await deadLetter(app, flaky, in: &group)
                let list = try await browser.get("/admin/dead-letters")
                #expect(list.text.contains("proc_console-test") && list.text.contains("the mail relay refused (test)"))
                let sequence = try #require(list.text.range(of: "/admin/dead-letters/").map { UInt64(String(list.text[$0.upperBound...].prefix { $0.isNumber })) } ?? nil)
                _ = try await browser.get("/admin/dead-letters/\(sequence)")
                let failedAgain = try await browser.post("/admin/dead-letters/\(sequence)/replay")
                #expect(failedAgain.status == .conflict && failedAgain.text.contains("stays"))
                flaky.fixed.withLock { $0 = true }
                let replayed = try await browser.post("/admin/dead-letters/\(sequence)/replay")
                #expect(replayed.status == .seeOther && replayed.headers[.location]?.contains("Replayed%20event%20\(origin)") == true)
                #expect(flaky.handled.withLock { $0 } == 1)
                #expect(try await browser.get("/admin/dead-letters/\(sequence)").status == .notFound)
                group.cancelAll()
            }
        }
    }

    /// Every field an operator fills in has a name a screen reader can say.
    func expectLabelled(_ browser: Browser, _ page: String) async throws {
        let unlabelled = try await browser.unlabelledFields()
        #expect(unlabelled.isEmpty, "fields of the \(page) page without a label: \(unlabelled)")
    }

    @Test(.enabled(if: Browser.available, "needs Debian's chromium and chromium-driver (make test installs them)"))
    func anOperatorDoesItAllByClickingInABrowser() async throws {
        try await apps.withTestApp(live: true) { app in
            let port = try #require(app.client.port)
            let site = "http://127.0.0.1:\(port)"
            let admin = try await app.key(app: "platform", [PlatformRoutes.adminScope])
            let flaky = FlakyProcessor()
            try await withThrowingTaskGroup(of: Void.self) { group in
                let origin = try await deadLetter(app, flaky, in: &group)
                var issuedKey = "", issuedId = ""
                try await Browser.with("admin-console") { browser in
                    try await browser.open("\(site)/admin")
                    try await browser.keep("sign-in")
                    try await expectLabelled(browser, "sign-in")
                    try await browser.type(admin, into: "input[name=key]")
                    try await browser.click("form[action='/admin/login'] button")
                    try await browser.waitFor(text: "Projections of this process")
                    try await browser.keep("overview")

                    try await browser.click("a[href='/admin/keys']")
                    try await browser.waitFor(text: "Issue a key")
                    try await expectLabelled(browser, "keys")
                    try await browser.type("opl", into: "#key-app") // a select: typing chooses the option
                    try await browser.type("read:mobile", into: "#key-scopes")
                    try await browser.type("browser test", into: "#key-label")
                    try await browser.click("form[action='/admin/keys'] button")
                    try await browser.waitFor(text: "Copy it now")
                    try await browser.keep("issued")
                    issuedKey = try await browser.text("#issued-key")
                    issuedId = String(try await browser.text("#issued-heading").split(separator: " ").last ?? "")
                }
                // The key works as any client would send it: curl, over the loopback.
                #expect(try Self.curl(site + "/api/platform/whoami", key: issuedKey).contains("\"keyId\":\"\(issuedId)\""))
                try await Browser.with("admin-console-revoke") { browser in
                    try await browser.open("\(site)/admin")
                    try await browser.type(admin, into: "input[name=key]")
                    try await browser.click("form[action='/admin/login'] button")
                    try await browser.waitFor(text: "Projections of this process")
                    try await browser.open("\(site)/admin/keys")
                    try await browser.type("browser test over", into: "#reason-\(issuedId)")
                    try await browser.click("form[action='/admin/keys/\(issuedId)/revoke'] button")
                    try await browser.waitFor(text: "Revoked \(issuedId)")
                    try await browser.keep("revoked")

                    flaky.fixed.withLock { $0 = true }
                    try await browser.click("a[href='/admin/dead-letters']")
                    try await browser.waitFor(text: "the mail relay refused (test)")
                    try await browser.keep("dead-letters")
                    try await browser.click("a[href^='/admin/dead-letters/']")
                    try await browser.waitFor(text: "Replay through proc_console-test")
                    try await browser.keep("dead-letter")
                    try await browser.click("form[action$='/replay'] button")
                    try await browser.waitFor(text: "Replayed event \(origin)")
                    try await browser.keep("replayed")
                }
                try await eventually("the revoked key refused") { (try? Self.curl(site + "/api/platform/whoami", key: issuedKey))?.contains("keyId") == false }
                #expect(flaky.handled.withLock { $0 } == 1)
                group.cancelAll()
            }
        }
    }

    /// The body curl gets for `url` with `key` (blocking; a test's own process).
    static func curl(_ url: String, key: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-H", "X-API-Key: \(key)", url]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
