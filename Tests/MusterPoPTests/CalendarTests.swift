import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNotifications
import MusterPlatform
@testable import MusterPoP
import MusterRuntime
import MusterStandIns
import MusterTesting
import Testing

/// PoP's civic calendar: organisers publish events and bills, the app reads them with ETags, an
/// install (by its registered device) and a learner (by their account) follow them, and reminders
/// and bill alerts reach their devices through the APNs stand-in.
@Suite("PoP's civic calendar: published, read with ETags, followed, reminded")
struct CalendarTests {
    static let installToken = String(repeating: "e1", count: 32)
    static let learnerToken = String(repeating: "e2", count: 32)

    static func titles(_ standIn: StandIn, to token: String) async -> [String] {
        await standIn.recorder.deliveries.filter { $0.token == token }.compactMap { delivery in
            let payload = try? JSONSerialization.jsonObject(with: Data(delivery.payload.utf8)) as? [String: Any]
            return ((payload?["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String
        }
    }

    @Test func organisersPublishFollowersAreRemindedAndAlerted() async throws {
        try await StandIn.with { standIn in
            try await apps.withTestApp(["ingest", "notifier", "query"], configure: { ProgressSyncTests.decks(&$0); standIn.configure(&$0) }) { app in
                let people = People.shared(in: app.env.environment)
                _ = try await people.createOrganisationPatiently(slug: "pop-sd", app: "pop", name: "People Over Party")
                _ = try await people.addPerson(People.Registration(orgSlug: "pop-sd", email: "org@example.com", firstName: "O", lastName: "R",
                                                                   phone: nil, password: "Organise2026", role: "organiser"))
                let organiser = try await people.login(orgSlug: "pop-sd", email: "org@example.com", password: "Organise2026", address: "test",
                                                       policy: People.TokenPolicy(app: "pop")).accessToken
                let learner = try await people.register(People.Registration(orgSlug: "pop-sd", email: "lee@example.com", firstName: "Lee", lastName: "R",
                                                                            phone: nil, password: "Learning2026"),
                                                        policy: People.TokenPolicy(app: "pop", signUpRole: "learner")).accessToken
                let key = try await app.key(app: "pop", [PoPRoutes.readScope, PoPRoutes.writeScope, DeviceRoutes.registerScope])
                let install = try #require(RegisteredDevice(try await app.request("/api/devices", method: .post, key: key, json: """
                {"token": "\(Self.installToken)", "platform": "ios", "bundleId": "com.peopleoverpartysd.pop", "environment": "sandbox"}
                """)))
                var learnerHeaders: HTTPFields = [.authorization: "Bearer \(learner)"]
                #expect(try await app.request("/api/devices", method: .post, headers: learnerHeaders, json: """
                {"token": "\(Self.learnerToken)", "platform": "ios", "bundleId": "com.peopleoverpartysd.pop", "environment": "sandbox"}
                """).status == .created)
                learnerHeaders[.apiKey] = key
                let bearer: HTTPFields = [.authorization: "Bearer \(organiser)"]

                // The app's configuration, with an ETag.
                let config = try await app.request("/api/pop/config", key: key)
                #expect(config.status == .ok && config.json["capital"] as? String == "Pierre" && config.json["stateAbbrev"] as? String == "SD",
                        "\(config.text)")
                let configTag = try #require(config.headers[.eTag])
                #expect(try await app.request("/api/pop/config", key: key, headers: [.ifNoneMatch: configTag]).status == .notModified)

                // An organiser publishes a meeting starting in an hour and a few seconds: its one-hour reminder is due at once.
                let eventId = UUID().uuidString.lowercased()
                let start = Date().addingTimeInterval(3600 + 6)
                let published = try await app.request("/api/pop/events/\(eventId)", method: .put, headers: bearer, json: """
                {"title": "Town hall on the budget", "start": "\(Timestamp.string(start))", "end": "\(Timestamp.string(start.addingTimeInterval(5400)))",
                 "timeZone": "America/Chicago", "place": "Rapid City library", "url": "https://peopleoverpartysd.com/events/budget",
                 "latitude": 44.08, "longitude": -103.23}
                """)
                #expect(published.status == .ok, "\(published.text)")
                let listed = try await app.request("/api/pop/events", key: key)
                #expect((listed.json["events"] as? [[String: Any]])?.map { $0["id"] as? String } == [eventId], "\(listed.text)")
                let tag = try #require(listed.headers[.eTag])
                #expect(try await app.request("/api/pop/events", key: key, headers: [.ifNoneMatch: tag]).status == .notModified)

                // The install (its device proven by its secret) and the learner (their token) follow it.
                var installHeaders = install.headers
                installHeaders[.apiKey] = key
                #expect(try await app.request("/api/pop/follows/event/\(eventId)", method: .put, headers: installHeaders).status == .noContent)
                #expect(try await app.request("/api/pop/me/follows/event/\(eventId)", method: .put, headers: learnerHeaders).status == .noContent)
                try await eventually("both are reminded an hour before", timeout: .seconds(30)) {
                    let (install, learner) = (await Self.titles(standIn, to: Self.installToken), await Self.titles(standIn, to: Self.learnerToken))
                    return install.contains("In an hour: Town hall on the budget") && learner.contains("In an hour: Town hall on the budget")
                }
                let reminder = try #require(try await app.log.read(filter: "events.platform.notification.>").compactMap { $0.payload as? NotificationScheduled }
                    .first { $0.key.hasSuffix(":1h") })
                #expect(reminder.notice.deviceId == install.id || reminder.notice.personId != nil)

                // A bill the install follows changes status: an alert.
                let bill = try await app.request("/api/pop/bills", method: .post, headers: bearer, json: """
                {"number": "hb 1001", "title": "An act to open primaries", "status": "In committee", "url": "https://sdlegislature.gov/Session/Bill/1001"}
                """)
                #expect(bill.status == .ok, "\(bill.text)")
                let billId = try #require(bill.json["id"] as? String)
                #expect(bill.json["number"] as? String == "HB 1001")
                #expect(try await app.request("/api/pop/follows/bill/\(billId)", method: .put, headers: installHeaders).status == .noContent)
                let billsTag = try #require(try await app.request("/api/pop/bills", key: key).headers[.eTag])
                _ = try await app.request("/api/pop/bills", method: .post, headers: bearer, json: """
                {"number": "HB 1001", "title": "An act to open primaries", "status": "Passed the House", "nextHearing": "\(Timestamp.string(start))",
                 "url": "https://sdlegislature.gov/Session/Bill/1001"}
                """)
                try await eventually("the follower hears of the bill") {
                    await Self.titles(standIn, to: Self.installToken).contains("HB 1001: Passed the House")
                }
                #expect(await !Self.titles(standIn, to: Self.learnerToken).contains("HB 1001: Passed the House"), "the learner follows no bill")
                #expect(try await app.request("/api/pop/bills", key: key, headers: [.ifNoneMatch: billsTag]).status == .ok, "a new ETag")

                // Cancelled: followers hear it; nothing else of it is sent.
                _ = try await app.request("/api/pop/events/\(eventId)", method: .put, headers: bearer, json: """
                {"title": "Town hall on the budget", "start": "\(Timestamp.string(start))", "end": "\(Timestamp.string(start.addingTimeInterval(5400)))",
                 "timeZone": "America/Chicago", "place": "Rapid City library", "url": "https://peopleoverpartysd.com/events/budget", "cancelled": true}
                """)
                try await eventually("followers hear of the cancellation") {
                    await Self.titles(standIn, to: Self.installToken).contains("Cancelled: Town hall on the budget")
                }

                // Who may not: a learner publishing, an install without its secret, links that are not https, things that do not exist.
                #expect(try await app.request("/api/pop/events/\(UUID().uuidString)", method: .put, headers: [.authorization: "Bearer \(learner)"], json: """
                {"title": "Mine", "start": "\(Timestamp.string(start))", "end": "\(Timestamp.string(start.addingTimeInterval(60)))", "timeZone": "UTC",
                 "place": "Here", "url": "https://example.com"}
                """).status == .forbidden)
                #expect(try await app.request("/api/pop/follows/event/\(eventId)", method: .put, key: key).status == .unprocessableContent)
                var forged = installHeaders
                forged[HTTPField.Name("X-Device-Secret")!] = String(repeating: "0", count: 43)
                #expect(try await app.request("/api/pop/follows/event/\(eventId)", method: .put, headers: forged).status == .notFound)
                let plain = try await app.request("/api/pop/events/\(UUID().uuidString)", method: .put, headers: bearer, json: """
                {"title": "Plain", "start": "\(Timestamp.string(start))", "end": "\(Timestamp.string(start.addingTimeInterval(60)))", "timeZone": "Mars/Base",
                 "place": "Here", "url": "http://example.com"}
                """)
                #expect(plain.status == .unprocessableContent, "\(plain.text)")
                #expect(try await app.request("/api/pop/follows/event/\(UUID().uuidString)", method: .put, headers: installHeaders).status == .notFound)
                #expect(try await app.request("/api/pop/follows/planet/x", method: .put, headers: installHeaders).status == .notFound)
                #expect(try await app.request("/api/pop/events", headers: [.authorization: "Bearer \(organiser)"]).status == .unauthorized,
                        "the app's key reads the calendar")
            }
        }
    }
}
