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
            // Another group's pages do not take this session (its cookie is scoped to /admin).
            #expect(await browser.cookies["muster_session"] != nil)

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
                #expect(replayed.status == .seeOther && replayed.headers[.location]?.contains("Replayed+event+\(origin)") == true)
                #expect(flaky.handled.withLock { $0 } == 1)
                #expect(try await browser.get("/admin/dead-letters/\(sequence)").status == .notFound)
                group.cancelAll()
            }
        }
    }
}
