import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterOPL
import MusterPlatform
import MusterRuntime
import MusterTesting
import NIOFoundationEssentialsCompat
import ServiceLifecycle
import Testing

@Suite("OPL moderation: checks, decisions, the page")
struct ModerationTests {
    static let submission = """
    {"employer": {"name": "Acme Logistics", "website": "https://www.acme-logistics.com/"},
     "action": {"organization": "Teamsters Local 120", "actionType": "strike", "location": "Rapid City, SD",
                "startDate": "2026-11-01", "durationDays": 60, "description": "Second shift out too",
                "coordinates": {"latitude": 44.085, "longitude": -103.22}}}
    """

    func moderation(_ app: TestApp, _ path: String, _ key: String) async throws -> [String: Any] {
        try await app.request("/api/moderation/\(path)", key: key).json
    }

    @Test func submitFlaggedApprovedVisibleInBothBlocklistsHashChanged304After() async throws {
        try await apps.withTestApp { app in
            let reader = try await app.key([OPLScopes.readMobile])
            let submitter = try await app.key([OPLScopes.submitStrike])
            let moderator = try await app.key([OPLScopes.moderate])
            try await app.seed([SeededAction(start: OPLDates.parse("2026-10-20")!, durationDays: 90)])
            let data = "/api/mobile/data?lat=44.0805&lng=-103.2310"
            let dataHash = try #require(try await app.request(data, key: reader).headers[.contentHash])
            let listHash = try #require(try await app.request("/api/blocklist.json", key: reader).headers[.contentHash])

            // Submit: stored, then flagged by the automatic checks as a likely duplicate.
            let submitted = try await app.request("/api/mobile/submit-strike", method: .post, key: submitter, json: Self.submission)
            let id = try Client.decode(Client.Submitted.self, Data(buffer: submitted.body)).id
            try await eventually("checks ran") { (try await moderation(app, "actions/\(id)", moderator))["checked"] as? Bool == true }
            let flags = try #require(try await moderation(app, "actions/\(id)", moderator)["flags"] as? [[String: Any]])
            #expect(flags.contains { $0["code"] as? String == "duplicate" })
            let queue = try await moderation(app, "queue?flag=duplicate", moderator)
            #expect((queue["items"] as? [[String: Any]])?.contains { $0["id"] as? String == id } == true)
            // Not visible before approval.
            #expect(try await app.request(data + "&hash=\(dataHash)", key: reader).status == .notModified)

            // Approve with an edit: one more blocklist entry.
            let approve = try await app.request("/api/moderation/actions/\(id)/approve", method: .post, key: moderator,
                                                json: #"{"reason": "a second site, not a duplicate", "urls": ["acme-logistics.com", "https://shop.acme-logistics.com/"]}"#)
            #expect(approve.status == .ok, "\(approve.text)")
            let approvedAt = ContinuousClock.now
            try await eventually("visible in /api/mobile/data") {
                try await app.request(data + "&hash=\(dataHash)", key: reader).status == .ok
            }
            // Within a second on an idle machine; the bound leaves room for the whole suite on two cores.
            #expect(ContinuousClock.now - approvedAt < .seconds(5), "an approval shows up within seconds")
            let mobile = try await app.request(data, key: reader)
            let newHash = try #require(mobile.headers[.contentHash])
            #expect(newHash != dataHash)
            let body = try Client.decode(Client.MobileData.self, Data(buffer: mobile.body))
            #expect(body.blocklist.urls.contains { $0.url == "shop.acme-logistics.com" && $0.actionId == id })
            #expect(body.geofences.all.contains { $0.actionId == id && $0.type == "action" })
            let list = try await app.request("/api/blocklist.json", key: reader)
            #expect(list.headers[.contentHash] != listHash)
            let map = try Client.decode([String: Client.ExtensionEntry].self, Data(buffer: list.body))
            #expect(map["Acme Logistics"]?.matchingUrlRegexes.contains("shop.acme-logistics.com") == true)
            // And the new hash is a 304 from now on.
            #expect(try await app.request(data + "&hash=\(newHash)", key: reader).status == .notModified)
            #expect(try await app.request("/api/blocklist.json?hash=\(list.headers[.contentHash]!)", key: reader).status == .notModified)
            // Who and why are in the log.
            let approved = try #require(try await app.log.read(filter: "events.opl.action.\(id).approved.v1").first?.payload as? ActionApproved)
            #expect(approved.moderator.hasPrefix("key_") && approved.reason == "a second site, not a duplicate")
        }
    }

    @Test func decisionsFollowTheLifecycleAndAlwaysRecordWhy() async throws {
        try await apps.withTestApp(["ingest", "moderation"]) { app in
            let moderator = try await app.key([OPLScopes.moderate])
            let submitter = try await app.key([OPLScopes.submitStrike])
            func submit() async throws -> String {
                let response = try await app.request("/api/mobile/submit-strike", method: .post, key: submitter, json: Self.submission)
                let id = try Client.decode(Client.Submitted.self, Data(buffer: response.body)).id
                try await eventually("\(id) folded") { try await app.request("/api/moderation/actions/\(id)", key: moderator).status == .ok }
                return id
            }
            func decide(_ id: String, _ decision: String, _ json: String) async throws -> TestResponse {
                try await app.request("/api/moderation/actions/\(id)/\(decision)", method: .post, key: moderator, json: json)
            }
            let a = try await submit()
            #expect(try await decide(a, "reject", "{}").status == .unprocessableContent) // why is required
            #expect(try await decide(a, "end", #"{"reason": "x"}"#).status == .conflict) // not approved yet
            #expect(try await decide(a, "reject", #"{"reason": "spam"}"#).status == .ok)
            #expect(try await decide(a, "reject", #"{"reason": "again"}"#).status == .conflict)

            let b = try await submit()
            let c = try await submit()
            #expect(try await decide(b, "approve", "").status == .ok) // no body: approve as submitted
            #expect(try await decide(c, "merge", #"{"into": "act_0000000000000000", "reason": "dup"}"#).status == .notFound)
            #expect(try await decide(c, "merge", #"{"into": "\#(b)", "reason": "same strike"}"#).status == .ok)
            try await eventually("b approved") { (try await moderation(app, "actions/\(b)", moderator))["status"] as? String == "approved" }
            #expect(try await decide(b, "end", #"{"reason": "contract signed"}"#).status == .ok)
            try await eventually("b ended") { (try await moderation(app, "actions/\(b)", moderator))["status"] as? String == "ended" }
            #expect(try await decide(b, "extend", #"{"durationDays": 90, "reason": "strike resumed"}"#).status == .ok)
            try await eventually("b back") { (try await moderation(app, "actions/\(b)", moderator))["status"] as? String == "approved" }
            #expect(try await decide(b, "dance", "{}").status == .notFound)
            #expect(try await decide(b, "approve", #"{"urls": ["not a host"]}"#).status == .unprocessableContent)
            #expect(try await app.request("/api/moderation/actions/\(b)/end", method: .post, key: submitter, json: #"{"reason": "x"}"#).status == .forbidden)

            let decisions = try #require(try await moderation(app, "actions/\(b)", moderator)["decisions"] as? [[String: Any]])
            #expect(decisions.map { $0["kind"] as? String } == ["approved", "ended", "extended"])
            #expect(decisions.allSatisfy { ($0["moderator"] as? String)?.hasPrefix("key_") == true && !(($0["reason"] as? String) ?? "").isEmpty })
        }
    }

    /// 50 approvals race 50 rejections on one action. Whatever wins, the log never holds an
    /// approval after a rejection, every 200 is one decision in the log, every other answer a
    /// 409; and a rejected action is approved only after a moderator reopens it.
    @Test func racingApprovalsAndRejectionsNeverOverturnARejection() async throws {
        try await apps.withTestApp(["ingest", "moderation"]) { app in
            let moderator = try await app.key([OPLScopes.moderate])
            let submitter = try await app.key([OPLScopes.submitStrike])
            let response = try await app.request("/api/mobile/submit-strike", method: .post, key: submitter, json: Self.submission)
            let id = try Client.decode(Client.Submitted.self, Data(buffer: response.body)).id
            try await eventually("checked") { (try await moderation(app, "actions/\(id)", moderator))["checked"] as? Bool == true }
            let answers = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status).self) { group in
                for n in 0..<100 {
                    let decision = n % 2 == 0 ? "approve" : "reject"
                    group.addTask {
                        let answer = try await app.request("/api/moderation/actions/\(id)/\(decision)", method: .post, key: moderator,
                                                           json: #"{"reason": "race \#(n)"}"#)
                        return (decision, answer.status)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.1 == .ok || $0.1 == .conflict }, "\(Set(answers.map { $0.1.code }))")
            let decisions = try await app.log.read(filter: "events.opl.action.\(id).>").map(\.payload.eventType.event)
                .filter { ["approved", "rejected"].contains($0) }
            #expect(decisions.count == answers.filter { $0.1 == .ok }.count)
            #expect(decisions.count(where: { $0 == "rejected" }) <= 1)
            if let rejected = decisions.firstIndex(of: "rejected") {
                #expect(rejected == decisions.count - 1, "nothing after a rejection: \(decisions)")
            }

            // A rejection stands until a moderator reopens it; then it can be approved.
            let other = try await app.request("/api/mobile/submit-strike", method: .post, key: submitter,
                                              json: Self.submission.replacingOccurrences(of: "Acme Logistics", with: "Other Co"))
            let b = try Client.decode(Client.Submitted.self, Data(buffer: other.body)).id
            try await eventually("checked") { (try await moderation(app, "actions/\(b)", moderator))["checked"] as? Bool == true }
            func decide(_ decision: String, _ reason: String) async throws -> HTTPResponse.Status {
                try await app.request("/api/moderation/actions/\(b)/\(decision)", method: .post, key: moderator, json: #"{"reason": "\#(reason)"}"#).status
            }
            #expect(try await decide("reopen", "not rejected yet") == .conflict)
            #expect(try await decide("reject", "looked like spam") == .ok)
            #expect(try await decide("approve", "late approval") == .conflict)
            #expect(try await decide("reopen", "the union confirmed it") == .ok)
            try await eventually("reopened") { (try await moderation(app, "actions/\(b)", moderator))["status"] as? String == "submitted" }
            #expect(try await decide("approve", "confirmed") == .ok)
            try await eventually("approved") { (try await moderation(app, "actions/\(b)", moderator))["status"] as? String == "approved" }
            let kinds = try #require(try await moderation(app, "actions/\(b)", moderator)["decisions"] as? [[String: Any]]).map { $0["kind"] as? String }
            #expect(kinds == ["rejected", "reopened", "approved"])
        }
    }

    @Test func snapshotsAreCheckedAndBecomeSitesWhenApproved() async throws {
        try await apps.withTestApp { app in
            let reader = try await app.key([OPLScopes.readMobile, OPLScopes.gpsSnapshot])
            let moderator = try await app.key([OPLScopes.moderate])
            let action = SeededAction()
            try await app.seed([action])
            func snapshot(_ lat: Double, _ lng: Double) async throws -> String {
                let response = try await app.request("/api/mobile/gps-snapshot", method: .post, key: reader,
                                                     json: #"{"actionId": "\#(action.id)", "latitude": \#(lat), "longitude": \#(lng), "address": "<b>Gate</b>"}"#)
                return try Client.decode(Client.Submitted.self, Data(buffer: response.body)).id
            }
            let near = try await snapshot(44.081, -103.232)
            let far = try await snapshot(40.7, -74.0)
            try await eventually("checked") {
                let farChecked = try await moderation(app, "snapshots/\(far)", moderator)["checked"] as? Bool == true
                let nearChecked = try await moderation(app, "snapshots/\(near)", moderator)["checked"] as? Bool == true
                return farChecked && nearChecked
            }
            let farFlags = try #require(try await moderation(app, "snapshots/\(far)", moderator)["flags"] as? [[String: Any]])
            #expect(farFlags.contains { $0["code"] as? String == "distance" })
            #expect((try await moderation(app, "snapshots/\(near)", moderator)["flags"] as? [Any])?.isEmpty == true)

            let approve = try await app.request("/api/moderation/snapshots/\(near)/approve", method: .post, key: moderator,
                                                json: #"{"reason": "matches the union list", "notificationRadius": 150}"#)
            #expect(approve.status == .ok)
            #expect(try await app.request("/api/moderation/snapshots/\(far)/reject", method: .post, key: moderator,
                                          json: #"{"reason": "New York is not Rapid City"}"#).status == .ok)
            try await eventually("site in the geofences") {
                let data = try Client.decode(Client.MobileData.self,
                                             Data(buffer: try await app.request("/api/mobile/data?lat=44.08&lng=-103.23", key: reader).body))
                return data.geofences.all.contains { $0.id == OPLIDs.siteID(forSnapshot: near) && $0.notificationRadius == 150 && $0.type == "picket-site" }
            }
        }
    }

    @Test func thePageSignsInEscapesEverythingAndActsThroughForms() async throws {
        try await apps.withTestApp { app in
            let moderator = try await app.key([OPLScopes.moderate])
            let outsider = try await app.key([OPLScopes.readMobile])
            let submitter = try await app.key([OPLScopes.submitStrike])
            let hostile = Self.submission.replacingOccurrences(of: "\"Acme Logistics\"", with: #""<script>alert('pwned')</script> & Co""#)
            let id = try Client.decode(Client.Submitted.self, Data(buffer: try await app.request("/api/mobile/submit-strike", method: .post,
                                                                                               key: submitter, json: hostile).body)).id

            let browser = PageVisit(app)
            let anonymous = try await browser.get("/moderation")
            #expect(anonymous.status == .unauthorized && anonymous.text.contains("action=\"/moderation/login\""))
            #expect(anonymous.headers[.contentSecurityPolicy]?.contains("script") == false && !anonymous.text.contains("<style"))
            // A sign-in form from another site (no token) is refused before any key is tried.
            #expect(try await browser.post("/moderation/login", [("key", moderator)], token: false).status == .forbidden)
            let refused = try await browser.post("/moderation/login", [("key", outsider)])
            #expect(refused.status == .unauthorized && refused.text.contains("lacks moderate:opl"))
            let login = try await browser.post("/moderation/login", [("key", moderator)])
            #expect(login.status == .seeOther)
            let setCookie = try #require(login.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))

            try await eventually("in the queue") { try await browser.get("/moderation").text.contains(id) }
            let page = try await browser.get("/moderation")
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt; &amp; Co"))
            #expect(!page.text.contains("<script>"))
            let detail = try await browser.get("/moderation/actions/\(id)")
            #expect(detail.text.contains("action=\"/moderation/actions/\(id)/approve\"") && !detail.text.contains("<script>"))

            // Before approving: the page shows, per entry, what each client will block.
            #expect(detail.text.contains("What each client will block") && detail.text.contains("formaction=\"/moderation/actions/\(id)/preview\""))
            let preview = try await browser.post("/moderation/actions/\(id)/preview", [
                ("urls", "https://shop.acme-logistics.com/\r\nm.facebook.com/acme?fbclid=x\r\nfacebook.com\r\nacme-logistics.ca"),
                ("ownDomains", "acme-logistics.com"), ("reason", "x"),
            ])
            #expect(preview.status == .ok)
            let rows = preview.text.components(separatedBy: "<tr>").dropFirst(2).map { $0.components(separatedBy: "</tr>")[0] }
            #expect(rows.count == 4, "\(preview.text)")
            if rows.count == 4 {
                #expect(rows[0].contains("all of <b>shop.acme-logistics.com</b> and its subdomains") && rows[0].contains("reach-host"))
                #expect(rows[1].contains("reach-none") && rows[1].contains("only the page <b>facebook.com/acme</b>") && rows[1].contains("facebook\\.com/acme"))
                #expect(rows[2].contains("refused at approval") && rows[2].contains("names only the root of facebook.com"))
                #expect(rows[3].contains("refused at approval") && rows[3].contains("mark acme-logistics.ca as the employer&#39;s own domain"))
            }
            #expect(preview.text.contains(">acme-logistics.com</textarea>"), "the typed own domains stay in the form")
            // A decision without the page's token (a form another site made) decides nothing.
            let forged = try await browser.post("/moderation/actions/\(id)/approve", [("urls", "acme-logistics.com"), ("reason", "x")], token: false)
            #expect(forged.status == .forbidden)
            let rootRefused = try await browser.post("/moderation/actions/\(id)/approve", [("urls", "facebook.com"), ("reason", "x")])
            #expect(rootRefused.status == .unprocessableContent && rootRefused.text.contains("names only the root of facebook.com"))
            let approve = try await browser.post("/moderation/actions/\(id)/approve", [
                ("urls", "acme-logistics.com\r\nfacebook.com/acme"), ("siteLatitude", "44.09"), ("siteLongitude", "-103.2"),
                ("siteName", "North gate"), ("reason", "checked by phone"),
            ])
            #expect(approve.status == .seeOther && approve.headers[.location] == "/moderation/actions/\(id)?done=approve")
            try await eventually("approved") { try await app.request("/api/moderation/actions/\(id)", key: moderator).json["status"] as? String == "approved" }
            let approved = try #require(try await app.log.read(filter: "events.opl.action.\(id).approved.v1").first?.payload as? ActionApproved)
            #expect(approved.urls == ["acme-logistics.com", "facebook.com/acme"])
            #expect(approved.locations.first?.name == "North gate" && approved.reason == "checked by phone")
            let again = try await browser.post("/moderation/actions/\(id)/reject", [("reason", "too late")])
            #expect(again.status == .conflict && again.text.contains("it is approved"))
        }
    }

    @Test func moderatorsSignInWithTheirAccountsAndSigningOutEndsTheSession() async throws {
        try await apps.withTestApp(["moderation"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "opl", app: "opl", name: "OPL moderators")
            _ = try await people.addPerson(People.Registration(orgSlug: "opl", email: "mo@example.com", firstName: "Mo", lastName: "D",
                                                               phone: nil, password: "Picket2026", role: "moderator"))
            try await people.createOrganisationPatiently(slug: "walks", app: "offleash", name: "Walks")
            _ = try await people.addPerson(People.Registration(orgSlug: "walks", email: "sam@example.com", firstName: "Sam", lastName: "S",
                                                               phone: nil, password: "Picket2026", role: "customer"))
            let browser = PageVisit(app)
            #expect(try await browser.get("/moderation").text.contains("name=\"password\""))
            let wrong = try await browser.post("/moderation/login", [("email", "mo@example.com"), ("password", "nope")])
            #expect(wrong.status == .unauthorized && wrong.text.contains("Wrong email or password"))
            // Another app's person is no moderator, whichever organisation the form names.
            for org in ["opl", "walks"] {
                let notModerator = try await browser.post("/moderation/login", [("org", org), ("email", "sam@example.com"), ("password", "Picket2026")])
                #expect(notModerator.status == .unauthorized && !notModerator.headers.contains(.setCookie))
            }

            let signedIn = try await browser.post("/moderation/login", [("email", "mo@example.com"), ("password", "Picket2026")])
            #expect(signedIn.status == .seeOther)
            let setCookie = try #require(signedIn.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            let cookie: HTTPFields = [.cookie: String(setCookie.prefix { $0 != ";" })]
            let page = try await browser.get("/moderation")
            #expect(page.status == .ok && page.text.contains("Signed in: moderator "), "\(page.text.prefix(300))")

            // Signing out takes the page's token too (another site cannot sign a moderator out).
            #expect(try await browser.post("/moderation/logout", token: false).status == .forbidden)
            #expect(try await browser.post("/moderation/logout").status == .seeOther)
            // The token in the old cookie opens nothing any more: its session ended.
            #expect(try await app.client.execute(uri: "/moderation", method: .get, headers: cookie).status == .unauthorized)
            // A browser that still sends the ended session's cookie gets a sign-in form that works.
            let stale = PageVisit(app)
            _ = try await stale.get("/moderation")
            await stale.set(cookie: "muster_session", String(setCookie.prefix { $0 != ";" }.dropFirst("muster_session=".count)))
            #expect(try await stale.get("/moderation").status == .unauthorized)
            #expect(try await stale.post("/moderation/login", [("email", "mo@example.com"), ("password", "Picket2026")]).status == .seeOther)
        }
    }

    @Test func actionsEndWhenTheirDurationRunsOut() async throws {
        try await apps.withTestApp(["query"]) { app in
            let expired = SeededAction(start: Date().addingTimeInterval(-10 * 86_400), durationDays: 3)
            let live = SeededAction(employer: "Live Co", urls: ["live.com"])
            try await app.seed([expired, live])
            let runner = app.env.environment.projections.runner(OPLProjection.self)
            await ExpirySweeper(runner: runner, log: app.log, logger: app.env.environment.logger).sweep()
            let ended = try await app.log.read(filter: "events.opl.action.*.ended.v1")
            #expect(ended.map(\.aggregateID) == [expired.id])
            #expect((ended.first?.payload as? ActionEnded)?.moderator == "system:expiry")
            try await app.settled("opl", at: ended[0].sequence)
            await ExpirySweeper(runner: runner, log: app.log, logger: app.env.environment.logger).sweep() // nothing more to do
            #expect(try await app.log.read(filter: "events.opl.action.*.ended.v1").count == 1)
        }
    }

    /// The checks judge a submission against the fold as it stood just before it: with the fold
    /// held back, the second of two identical submissions waits, and is flagged as a duplicate of
    /// the first once the fold has it.
    @Test func checksWaitForTheFoldToHaveTheSubmissionBefore() async throws {
        try await apps.withTestLog { env in
            let moderation = apps.modules(["moderation"], environment: env.environment)
            let opl = env.environment.projections.runner(OPLProjection.self)
            let first = SeededAction(), second = SeededAction()
            func submitted(_ action: SeededAction) -> ActionSubmitted {
                ActionSubmitted(actionId: action.id, employer: EmployerDetails(name: action.employer), action: action.details,
                                submittedBy: "key_0000000000000001")
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for service in moderation.flatMap({ $0.services(in: env.environment) }) { group.addTask { try await service.run() } }
                try await env.log.append(submitted(first))
                try await env.log.append(submitted(second))
                try await eventually("the first is checked") { try await env.log.read(filter: "events.opl.action.*.checked.v1").count == 1 }
                try await Task.sleep(for: .milliseconds(500))
                #expect(try await env.log.read(filter: "events.opl.action.*.checked.v1").count == 1, "the second waits for the fold")

                group.addTask { try await opl.run() }
                try await eventually("both checked") { try await env.log.read(filter: "events.opl.action.*.checked.v1").count == 2 }
                let checks = try await env.log.read(filter: "events.opl.action.*.checked.v1").compactMap { $0.payload as? ActionChecked }
                #expect(checks.first { $0.actionId == first.id }?.flags.isEmpty == true)
                #expect(checks.first { $0.actionId == second.id }?.flags.contains { $0.code == "duplicate" } == true)
                group.cancelAll()
            }
        }
    }
}
