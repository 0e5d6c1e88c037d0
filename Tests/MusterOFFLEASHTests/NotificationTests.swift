import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNotifications
@testable import MusterOFFLEASH
import MusterPlatform
import MusterRuntime
import MusterStandIns
import MusterTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Testing

/// OFFLEASH's people hear what happens to their walks: every lifecycle step through the real
/// routes, the notifier's rules, APNs (its stand-in, over HTTP/2) and mail (SendGrid's stand-in),
/// to the right person's devices and address and nobody else's.
@Suite("OFFLEASH notifications: each step of a walk tells the right person, by push and mail")
struct NotificationTests {
    struct Rig: Sendable {
        let app: TestApp
        let org: WalksContractTests.Org
        let apns: StandIn
        let mail: SMSStandIn.Recorder

        func bearer(_ token: String) -> HTTPFields { AccountContractTests.bearer(token) }

        /// Pushes delivered to `token` whose title is `title`.
        func pushes(to token: String, _ title: String? = nil) async -> [[String: Any]] {
            await apns.recorder.deliveries.filter { $0.token == token }.compactMap { delivery in
                (try? JSONSerialization.jsonObject(with: Data(delivery.payload.utf8))) as? [String: Any]
            }.filter { payload in
                title == nil || ((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String == title
            }
        }

        func mails(to email: String, _ subject: String? = nil) async -> [SMSStandIn.Message] {
            await mail.messages.filter { $0.to == email && (subject == nil || $0.subject == subject) }
        }

        func book(_ walker: String, at start: Date, token: String) async throws -> ContractBooking {
            let answer = try await app.request("/bookings", method: .post, headers: bearer(token), json: """
            {"walker_id": "\(walker)", "service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(ISO8601DateFormatter().string(from: start))"}
            """)
            #expect(answer.status == .created, "\(answer.text)")
            return try WalksContractTests.decode(ContractBooking.self, answer)
        }

        func act(_ booking: String, _ action: String, token: String, json: String? = nil) async throws {
            let answer = try await app.request("/bookings/\(booking)/\(action)", method: .post, headers: bearer(token), json: json)
            #expect(answer.status == .ok, "\(action): \(answer.text)")
        }

        func device(_ token: String, pushToken: String) async throws {
            let answer = try await app.request("/api/devices", method: .post, headers: bearer(token), json: """
            {"token": "\(pushToken)", "platform": "ios", "bundleId": "com.offleash.ios", "environment": "sandbox"}
            """)
            #expect(answer.status == .created, "\(answer.text)")
        }
    }

    static func withRig(_ body: @escaping @Sendable (Rig) async throws -> Void) async throws {
        let mail = SMSStandIn.Recorder()
        try await Application(router: SMSStandIn.router(recorder: mail)).test(.live) { mailServer in
            let mailPort = try #require(mailServer.port)
            try await StandIn.with { apns in
                try await WalksContractTests.withOrg(roles: ["ingest", "notifier", "query"], configure: {
                    apns.configure(&$0)
                    $0[InvitationSettings.self].mailURL = "http://127.0.0.1:\(mailPort)"
                    $0[InvitationSettings.self].mailKey = "SG.test"
                }) { app, org in
                    try await body(Rig(app: app, org: org, apns: apns, mail: mail))
                }
            }
        }
    }

    static let (customerPush, walkerPush, otherWalkerPush) = (String(repeating: "c1", count: 32), String(repeating: "a1", count: 32),
                                                             String(repeating: "b1", count: 32))

    @Test func everyStepOfAWalkTellsTheRightPersonAndNobodyElse() async throws {
        try await Self.withRig { rig in
            let walker = try await WalksContractTests.token(rig.app, "walker0@example.com")
            let other = try await WalksContractTests.token(rig.app, "walker1@example.com")
            try await rig.device(rig.org.customer, pushToken: Self.customerPush)
            try await rig.device(walker, pushToken: Self.walkerPush)
            try await rig.device(other, pushToken: Self.otherWalkerPush)
            let monday = try #require(ISO8601DateFormatter().date(from: "\(rig.org.monday)T10:00:00Z"))

            // A request: the walker hears of it, by push and by mail with a one-click unsubscribe.
            let first = try await rig.book(rig.org.walkers[0], at: monday, token: rig.org.customer)
            try await eventually("the walker is told of the request") { await rig.pushes(to: Self.walkerPush, "New walk request").count == 1 }
            let request = try #require(await rig.pushes(to: Self.walkerPush, "New walk request").first)
            #expect(request["screen"] as? String == "booking" && request["id"] as? String == first.id)
            try await eventually("and mailed") { await rig.mails(to: "walker0@example.com", "OFFLEASH: new walk request").count == 1 }
            let letter = try #require(await rig.mails(to: "walker0@example.com").first)
            #expect(letter.headers?["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click")
            #expect(letter.headers?["List-Unsubscribe"]?.contains("/api/offleash/notifications/unsubscribe?person=") == true)
            #expect(letter.body.contains("30 minute walk on Mon"), "\(letter.body)")

            // The customer wants no mail when a walk is done: their choice holds.
            let off = try await rig.app.request("/api/offleash/me/notifications", method: .put, headers: rig.bearer(rig.org.customer),
                                                json: #"{"categories": {"walk-completed": {"email": false}}}"#)
            #expect(off.status == .ok, "\(off.text)")
            let categories = try #require(off.json["categories"] as? [[String: Any]])
            let completed = try #require(categories.first { $0["category"] as? String == "walk-completed" })
            #expect(completed["channels"] as? [String: Bool] == ["push": true, "email": false])

            // Confirmed: the customer hears it; both get a reminder an hour before.
            try await rig.act(first.id, "confirm", token: walker)
            try await eventually("the customer is told") { await rig.pushes(to: Self.customerPush, "Walk confirmed").count == 1 }
            try await eventually("and mailed") { await rig.mails(to: "cust@example.com", "OFFLEASH: walk confirmed").count == 1 }
            try await eventually("two reminders wait") {
                try await rig.app.log.read(filter: "events.platform.notification.>").compactMap { $0.payload as? NotificationScheduled }
                    .filter { $0.reason == "reminder" }.count == 2
            }
            let reminders = try await rig.app.log.read(filter: "events.platform.notification.>").compactMap { $0.payload as? NotificationScheduled }
            #expect(Set(reminders.compactMap { Timestamp.millis($0.dueAt) }) == [Timestamp.millis(monday.addingTimeInterval(-3600))])

            // Moved twice in a row by the customer: the walker gets one message with the last time.
            try await rig.act(first.id, "reschedule", token: rig.org.customer,
                              json: #"{"start_time": "\#(ISO8601DateFormatter().string(from: monday.addingTimeInterval(3600)))"}"#)
            try await rig.act(first.id, "reschedule", token: rig.org.customer,
                              json: #"{"start_time": "\#(ISO8601DateFormatter().string(from: monday.addingTimeInterval(7200)))"}"#)
            try await eventually("the walker hears of the move once it settled", timeout: .seconds(90)) {
                await rig.pushes(to: Self.walkerPush, "Walk moved").count == 1
            }
            let moved = try #require(await rig.pushes(to: Self.walkerPush, "Walk moved").first)
            let movedBody = ((moved["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String
            #expect(movedBody?.contains("at 12:00 UTC") == true, "the last time: \(movedBody ?? "")")
            let pending = try await rig.app.log.read(filter: "events.platform.notification.>").compactMap { $0.payload as? NotificationScheduled }
            #expect(pending.filter { $0.reason == "reminder" }.last.flatMap { Timestamp.millis($0.dueAt) } == Timestamp.millis(monday.addingTimeInterval(7200 - 3600)),
                    "the reminders moved with the walk")

            // Completed: the customer's push says what was charged; no mail, as they chose; the reminders are dropped.
            try await rig.act(first.id, "complete", token: walker)
            try await eventually("the customer hears it is done") { await rig.pushes(to: Self.customerPush, "Walk completed").count == 1 }
            let done = try #require(await rig.pushes(to: Self.customerPush, "Walk completed").first)
            #expect((((done["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String)?.contains("Charged $25.00") == true)
            try await eventually("the choice is on record and the reminders are cancelled") {
                let events = try await rig.app.log.read(filter: "events.platform.notification.>")
                let suppressed = events.compactMap { $0.payload as? NotificationSuppressed }
                return suppressed.contains { $0.decision.category == "walk-completed" && $0.reason == "preference" }
                    && events.compactMap({ $0.payload as? NotificationCancelled }).count == 2
            }
            #expect(await rig.mails(to: "cust@example.com", "OFFLEASH: walk completed").isEmpty)

            // Declined: a walker who cancels a request they never confirmed declines it.
            let second = try await rig.book(rig.org.walkers[0], at: monday.addingTimeInterval(3 * 3600), token: rig.org.customer)
            try await eventually("requested") { await rig.pushes(to: Self.walkerPush, "New walk request").count == 2 }
            try await rig.act(second.id, "cancel", token: walker)
            try await eventually("the customer hears it was declined") { await rig.pushes(to: Self.customerPush, "Walk request declined").count == 1 }

            // Cancelled by the customer after it was confirmed: the walker hears it.
            let third = try await rig.book(rig.org.walkers[0], at: monday.addingTimeInterval(4 * 3600), token: rig.org.customer)
            try await rig.act(third.id, "confirm", token: walker)
            try await eventually("confirmed") { await rig.pushes(to: Self.customerPush, "Walk confirmed").count == 2 }
            try await rig.act(third.id, "cancel", token: rig.org.customer)
            try await eventually("the walker hears of the cancellation") { await rig.pushes(to: Self.walkerPush, "Walk cancelled").count == 1 }

            // Nobody else heard anything: not the other walker, and each of these two only what was theirs.
            #expect(await rig.pushes(to: Self.otherWalkerPush).isEmpty)
            #expect(await rig.mails(to: "walker1@example.com").isEmpty)
            let walkerTitles = await rig.pushes(to: Self.walkerPush).compactMap { (($0["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String }
            #expect(walkerTitles.sorted() == ["New walk request", "New walk request", "New walk request", "Walk cancelled", "Walk moved"], "\(walkerTitles)")
            let customerTitles = await rig.pushes(to: Self.customerPush).compactMap { (($0["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String }
            #expect(customerTitles.sorted() == ["Walk completed", "Walk confirmed", "Walk confirmed", "Walk request declined"], "\(customerTitles)")
        }
    }

    @Test func quietHoursDeferAMessageUntilTheyEndAndTheUnsubscribeLinkTurnsMailOff() async throws {
        try await Self.withRig { rig in
            let walker = try await WalksContractTests.token(rig.app, "walker0@example.com")
            try await rig.device(walker, pushToken: Self.walkerPush)
            // Quiet hours that began an hour ago and end at the next minute but one, in the walker's zone.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: "America/Chicago"))
            let now = Date()
            let end = try #require(calendar.date(byAdding: .minute, value: 2, to: now))
            func hhmm(_ date: Date) -> String {
                let parts = calendar.dateComponents([.hour, .minute], from: date)
                return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            }
            let quiet = try await rig.app.request("/api/offleash/me/notifications", method: .put, headers: rig.bearer(walker), json: """
            {"quietHours": {"start": "\(hhmm(now.addingTimeInterval(-3600)))", "end": "\(hhmm(end))", "timeZone": "America/Chicago"}}
            """)
            #expect(quiet.status == .ok, "\(quiet.text)")
            let bad = try await rig.app.request("/api/offleash/me/notifications", method: .put, headers: rig.bearer(walker),
                                                json: #"{"quietHours": {"start": "25:00", "end": "07:00", "timeZone": "Mars/Olympus"}}"#)
            #expect(bad.status == .unprocessableContent, "\(bad.text)")
            let unknown = try await rig.app.request("/api/offleash/me/notifications", method: .put, headers: rig.bearer(walker),
                                                    json: #"{"categories": {"walk-telepathy": {"push": true}}}"#)
            #expect(unknown.status == .unprocessableContent, "\(unknown.text)")

            let monday = try #require(ISO8601DateFormatter().date(from: "\(rig.org.monday)T11:00:00Z"))
            _ = try await rig.book(rig.org.walkers[0], at: monday, token: rig.org.customer)
            try await eventually("the request waits for the end of quiet hours") {
                try await rig.app.log.read(filter: "events.platform.notification.>").compactMap { $0.payload as? NotificationDeferred }.count == 2
            }
            #expect(await rig.pushes(to: Self.walkerPush).isEmpty, "nothing during quiet hours")
            try await eventually("and then goes out", timeout: .seconds(200)) { await rig.pushes(to: Self.walkerPush, "New walk request").count == 1 }
            let deferredUntil = try #require(try await rig.app.log.read(filter: "events.platform.notification.>")
                .compactMap { $0.payload as? NotificationDeferred }.first.flatMap { Timestamp.millis($0.until) })
            #expect(Timestamp.millis(Date()) - deferredUntil < 5_000, "sent within seconds of the end")
            try await eventually("mailed too") { await rig.mails(to: "walker0@example.com", "OFFLEASH: new walk request").count == 1 }

            // The mail's link: a GET shows a button and changes nothing; a forged token is refused; the one-click POST turns mail off.
            let letter = try #require(await rig.mails(to: "walker0@example.com").first)
            let link = try #require(letter.headers?["List-Unsubscribe"]?.trimmingCharacters(in: CharacterSet(charactersIn: "<>")))
            let path = String(try #require(link.range(of: "/api/").map { link[$0.lowerBound...] }))
            #expect(try await rig.app.request(path).status == .ok)
            let forged = path.replacingOccurrences(of: "token=", with: "token=0")
            #expect(try await rig.app.request(String(forged.dropLast()), method: .post).status == .notFound)
            let done = try await rig.app.client.execute(uri: path, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                                        body: ByteBuffer(string: "List-Unsubscribe=One-Click"))
            #expect(done.status == .ok, "\(done.text)")
            let settings = try await rig.app.request("/api/offleash/me/notifications", headers: rig.bearer(walker))
            let requested = try #require((settings.json["categories"] as? [[String: Any]])?.first { $0["category"] as? String == "walk-requested" })
            #expect(requested["channels"] as? [String: Bool] == ["push": true, "email": false])
            #expect((settings.json["quietHours"] as? [String: Any])?["timeZone"] as? String == "America/Chicago")
            // Another person's settings are not reachable without their token.
            #expect(try await rig.app.request("/api/offleash/me/notifications").status == .unauthorized)
        }
    }

    /// Malformed, oversized, duplicated and hostile settings are refused with a 4xx and store nothing;
    /// another app's token is refused; settings are only ever the caller's own.
    @Test func hostileSettingsStoreNothing() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let bearer = AccountContractTests.bearer(org.customer)
            let cases: [(String, HTTPResponse.Status)] = [
                ("{", .badRequest),
                ("{}", .badRequest),
                (#"{"categories": {"walk-reminder": {"email": true}}, "categories": {}}"#, .badRequest),
                (#"{"categories": {"walk-reminder": {"email": null}}}"#, .badRequest),
                (#"{"categories": {"walk-reminder": {"pigeon": true}}}"#, .unprocessableContent),
                (#"{"categories": {"walk-reminder": {"sms": true}}}"#, .unprocessableContent),
                (#"{"categories": {"../../etc": {"push": true}}}"#, .unprocessableContent),
                (#"{"quietHours": {"start": "22:00", "end": "07:00", "timeZone": "Europe/Berlin\u0000"}}"#, .unprocessableContent),
                (#"{"quietHours": {"start": "22:00", "end": "22:00", "timeZone": "UTC"}}"#, .unprocessableContent),
                (#"{"quietHours": {"start": "22:00", "timeZone": "UTC"}}"#, .badRequest),
                ("{\"categories\": {\"walk-reminder\": {\"push\": \"" + String(repeating: "x", count: 20_000) + "\"}}}", .contentTooLarge),
            ]
            for (body, status) in cases {
                let answer = try await app.request("/api/offleash/me/notifications", method: .put, headers: bearer, json: body)
                #expect(answer.status == status, "\(body.prefix(80)): \(answer.status) \(answer.text)")
            }
            #expect(try await app.request("/api/offleash/me/notifications", method: .put, json: #"{"quietHours": null}"#).status == .unauthorized)
            // A field worker's token is another app's: as unknown here as none.
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "crew", app: "field", name: "Crew")
            _ = try await people.addPerson(People.Registration(orgSlug: "crew", email: "fay@crew.example", firstName: "Fay", lastName: "F",
                                                               phone: nil, password: "Hardhat-2026", role: "worker"))
            let fieldToken = try await people.login(orgSlug: "crew", email: "fay@crew.example", password: "Hardhat-2026", address: "127.0.0.1",
                                                    policy: People.TokenPolicy(app: "field")).accessToken
            #expect(try await app.request("/api/offleash/me/notifications", headers: AccountContractTests.bearer(fieldToken)).status == .unauthorized)
            let stored = try await app.log.read(filter: "events.platform.preferences.>")
            #expect(stored.isEmpty, "nothing hostile was stored: \(stored.count)")
            // And a retry of the same good request stores what it says, twice the same.
            for _ in 0..<2 {
                let good = try await app.request("/api/offleash/me/notifications", method: .put, headers: bearer,
                                                  json: #"{"categories": {"walk-reminder": {"email": true}}}"#)
                #expect(good.status == .ok, "\(good.text)")
            }
            let settings = try await app.request("/api/offleash/me/notifications", headers: bearer)
            let reminder = try #require((settings.json["categories"] as? [[String: Any]])?.first { $0["category"] as? String == "walk-reminder" })
            #expect(reminder["channels"] as? [String: Bool] == ["push": true, "email": true])
        }
    }

    /// A notifier starting on a long log tells nothing of last week, and still sets up the reminders
    /// of what is yet to come.
    @Test func oldEventsSetUpRemindersButTellNothing() {
        let notice = Notice(app: "offleash", category: "walk-confirmed", personId: UUID().uuidString.lowercased(), about: "booking:x",
                            title: "Walk confirmed", body: "Your walk is confirmed.")
        let actions: [NotificationAction] = [.send(notice), .remind(notice, at: Date().addingTimeInterval(86_400), key: "k"), .cancel(key: "c")]
        let now = Date()
        #expect(NotificationRules.current(actions, happenedAt: Timestamp.string(now.addingTimeInterval(-60)), now: now).map(\.0) == [0, 1, 2])
        let lastWeek = NotificationRules.current(actions, happenedAt: Timestamp.string(now.addingTimeInterval(-7 * 86_400)), now: now)
        #expect(lastWeek.map(\.0) == [1, 2], "the reminder and the cancellation keep their places (their idempotency keys)")
    }

    @Test func quietHoursAcrossMidnightEndAtTheirEndInThePersonsZone() throws {
        let quiet = QuietHours(start: "22:00", end: "07:00", timeZone: "Europe/Berlin")
        let late = try #require(ISO8601DateFormatter().date(from: "2026-12-06T22:30:00Z")) // 23:30 in Berlin
        #expect(quiet.end(containing: late) == ISO8601DateFormatter().date(from: "2026-12-07T06:00:00Z"))
        let early = try #require(ISO8601DateFormatter().date(from: "2026-12-07T05:59:00Z")) // 06:59
        #expect(quiet.end(containing: early) == ISO8601DateFormatter().date(from: "2026-12-07T06:00:00Z"))
        let day = try #require(ISO8601DateFormatter().date(from: "2026-12-07T12:00:00Z"))
        #expect(quiet.end(containing: day) == nil)
        // Summer time: 07:00 in Berlin is 05:00 UTC.
        let summer = try #require(ISO8601DateFormatter().date(from: "2026-07-01T01:00:00Z"))
        #expect(quiet.end(containing: summer) == ISO8601DateFormatter().date(from: "2026-07-01T05:00:00Z"))
        #expect(throws: EventValidationError.self) { try QuietHours(start: "22:00", end: "22:00", timeZone: "UTC").validate() }
        #expect(throws: EventValidationError.self) { try QuietHours(start: "7:00", end: "22:00", timeZone: "UTC").validate() }
    }
}
