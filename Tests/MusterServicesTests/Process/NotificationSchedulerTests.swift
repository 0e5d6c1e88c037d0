import Foundation
import Glibc
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNotifications
import MusterPlatform
import MusterStandIns
import MusterTesting
import Synchronization
import Testing

/// The durable scheduler with two real `muster serve notifier` processes: a reminder due while
/// one of them is killed with SIGKILL goes out once, within 5 s of its time; a reminder moved
/// before it was due goes out once, at its new time, never at its old one.
@Suite("Reminders go out once and on time with two notifiers, one killed -9 at the due moment", .serialized)
struct NotificationSchedulerTests {
    func serveNotifier(_ app: TestApp, standIn: StandIn, instance: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: KillNineTests.binary)
        let data = app.env.server.directory.appendingPathComponent(instance)
        process.arguments = ["serve", "notifier", "--nats-url", app.env.server.url, "--data-dir", data.path, "--port", "\(try freePort())",
                             "--metrics-port", "off", "--instance", instance, "--log-level", "warning"]
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_APNS_KEY_FILE"] = standIn.keyFile
        environment["MUSTER_APNS_KEY_ID"] = StandIn.keyID
        environment["MUSTER_APNS_TEAM_ID"] = StandIn.teamID
        environment["MUSTER_APNS_SANDBOX_URL"] = standIn.url
        environment["MUSTER_APNS_PRODUCTION_URL"] = standIn.url
        environment["MUSTER_APNS_CA_FILE"] = standIn.certificate
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        return process
    }

    /// When each title first reached the stand-in, watched every 20 ms.
    final class Arrivals: Sendable {
        let first = Mutex<[String: Date]>([:])
    }

    @Test func aReminderGoesOutOnceOnTimeThroughAKillAndAMovedOneOnlyAtItsNewTime() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        try await StandIn.with { standIn in
            try await apps.withTestApp(["ingest"]) { app in
                let people = People.shared(in: app.env.environment)
                try await people.createOrganisationPatiently(slug: "reminders", app: "offleash", name: "Reminders")
                let person = try await people.addPerson(People.Registration(orgSlug: "reminders", email: "rae@example.com", firstName: "Rae",
                                                                            lastName: "Minder", phone: nil, password: "Walkies2026", role: "customer"))
                let login = try await app.request("/auth/login", method: .post,
                                                  json: #"{"org_slug": "reminders", "email": "rae@example.com", "password": "Walkies2026"}"#)
                let token = try #require(login.json["token"] as? String, "\(login.text)")
                let pushToken = String(repeating: "d4", count: 32)
                let device = try await app.request("/api/devices", method: .post, headers: [.authorization: "Bearer \(token)"], json: """
                {"token": "\(pushToken)", "platform": "ios", "bundleId": "com.offleash.ios", "environment": "sandbox"}
                """)
                #expect(device.status == .created, "\(device.text)")

                var first = try serveNotifier(app, standIn: standIn, instance: "notifier-a")
                let second = try serveNotifier(app, standIn: standIn, instance: "notifier-b")
                defer {
                    for process in [first, second] where process.ending == nil { kill(process.processIdentifier, SIGKILL) }
                }
                // Both notifiers are up and caught up: an earlier message goes out through them first.
                func notice(_ title: String) -> Notice {
                    Notice(app: "offleash", category: "walk-reminder", personId: person.personId, about: "booking:\(title)", title: title,
                           body: "Your walk starts in an hour.")
                }
                func schedule(_ key: String, _ title: String, in seconds: Double) async throws -> Date {
                    let due = Date(timeIntervalSinceNow: seconds)
                    try await app.log.append(NotificationScheduled(key: key, notice: notice(title), dueAt: Timestamp.string(millis: Timestamp.millis(due)),
                                                                   channels: ["push"], reason: "reminder"))
                    return due
                }
                let arrivals = Arrivals()
                let watching = Task {
                    while !Task.isCancelled {
                        for delivery in await standIn.recorder.deliveries where delivery.token == pushToken {
                            guard let payload = try? JSONSerialization.jsonObject(with: Data(delivery.payload.utf8)) as? [String: Any],
                                  let title = ((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String else { continue }
                            arrivals.first.withLock { if $0[title] == nil { $0[title] = Date() } }
                        }
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
                defer { watching.cancel() }
                _ = try await schedule("test:warm-up", "Warm-up", in: 0)
                try await eventually("the notifiers are working", timeout: .seconds(90)) { arrivals.first.withLock { $0["Warm-up"] } != nil }

                let due = try await schedule("test:kill", "Through the kill", in: 4)
                _ = try await schedule("test:moved", "Moved", in: 3)
                let moved = try await schedule("test:moved", "Moved", in: 7)
                // The first notifier dies at the moment the reminder is due.
                try await Task.sleep(until: .now + .seconds(due.timeIntervalSinceNow))
                kill(first.processIdentifier, SIGKILL)
                _ = try await first.waitForExit(within: .seconds(30), "muster serve notifier after SIGKILL")

                try await eventually("the reminder went out", timeout: .seconds(20)) { arrivals.first.withLock { $0["Through the kill"] } != nil }
                let sent = try #require(arrivals.first.withLock { $0["Through the kill"] })
                #expect(sent.timeIntervalSince(due) < 5, "within 5 s of its time: \(sent.timeIntervalSince(due)) s")
                try await eventually("the moved reminder went out", timeout: .seconds(20)) { arrivals.first.withLock { $0["Moved"] } != nil }
                let movedSent = try #require(arrivals.first.withLock { $0["Moved"] })
                #expect(movedSent >= moved.addingTimeInterval(-0.5), "not at its old time: \(movedSent.timeIntervalSince(moved)) s")
                #expect(movedSent.timeIntervalSince(moved) < 5)
                print(String(format: "scheduler: the reminder due at the kill went out %.2f s after its time, the moved one %.2f s after its new time",
                             sent.timeIntervalSince(due), movedSent.timeIntervalSince(moved)))

                // The killed notifier comes back and finds nothing left to send; nothing went out twice.
                first = try serveNotifier(app, standIn: standIn, instance: "notifier-a")
                try await Task.sleep(for: .seconds(5))
                let titles = await standIn.recorder.deliveries.filter { $0.token == pushToken }.compactMap { delivery -> String? in
                    let payload = try? JSONSerialization.jsonObject(with: Data(delivery.payload.utf8)) as? [String: Any]
                    return ((payload?["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String
                }
                #expect(titles.sorted() == ["Moved", "Through the kill", "Warm-up"], "\(titles)")
                let decisions = try await app.log.read(filter: "events.platform.notification.>").compactMap { $0.payload as? NotificationSent }
                #expect(decisions.count == 3)
            }
        }
    }
}
