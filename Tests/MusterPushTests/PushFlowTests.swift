import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import MusterStandIns
import MusterAppTesting
@testable import MusterEvents
import MusterLog
@testable import MusterPlatform
@testable import MusterPush
import MusterRuntime
import MusterTesting
import NIOFoundationEssentialsCompat
import Testing

@Suite("Pushes end to end: POST /api/push, the notifier, the APNs stand-in, outcomes as events")
struct PushFlowTests {
    static func token(_ n: Int) -> String { String(format: "%064x", n) }

    static func register(_ app: TestApp, key: String, token: String, extra: String = "") async throws -> RegisteredDevice {
        let response = try await app.request("/api/devices", method: .post, key: key, json: """
        {"token": "\(token)", "platform": "ios", "bundleId": "com.kordant.shieldai", "environment": "sandbox"\(extra)}
        """)
        #expect(response.status == .created, "\(response.text)")
        return try #require(RegisteredDevice(response))
    }

    static func completed(_ app: TestApp, key: String, _ pushId: String) async throws -> [String: Any] {
        var answer: [String: Any] = [:]
        try await eventually("push \(pushId) completed") {
            answer = try await app.request("/api/push/\(pushId)", key: key).json
            return answer["status"] as? String == "completed"
        }
        return answer
    }

    @Test func aDeepLinkPushReachesTheDeviceAndA410InvalidatesIt() async throws {
        try await StandIn.with { standIn in
            try await apps.withTestApp(["ingest", "notifier", "query"], configure: standIn.configure) { app in
                let deviceKey = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
                let pushKey = try await app.key(app: "shieldai", [PushRoutes.scope])
                let first = try await Self.register(app, key: deviceKey, token: Self.token(1), extra: #", "topics": ["alerts"]"#)
                _ = try await Self.register(app, key: deviceKey, token: Self.token(2))

                let dry = try await app.request("/api/push", method: .post, key: pushKey, json: """
                {"audience": {"everyone": true}, "title": "Scan finished", "body": "2 new exposures", "dryRun": true}
                """)
                #expect(dry.status == .ok && dry.json["targeted"] as? Int == 2, "\(dry.text)")

                let sent = try await app.request("/api/push", method: .post, key: pushKey, json: """
                {"audience": {"tokens": ["\(Self.token(1))"]}, "title": "Voice enrolled", "body": "Tap to review",
                 "screen": "enrollment", "id": "enr_1", "imageUrl": "https://cdn.example.com/wave.png", "collapseId": "enrollment"}
                """)
                #expect(sent.status == .accepted, "\(sent.text)")
                let pushId = try #require(sent.json["pushId"] as? String, "\(sent.status): \(sent.text)")
                let done = try await Self.completed(app, key: pushKey, pushId)
                #expect(done["delivered"] as? Int == 1 && done["failed"] as? Int == 0, "\(done)")
                let delivery = try #require(await standIn.recorder.deliveries.first)
                #expect(delivery.token == Self.token(1) && delivery.collapseId == "enrollment")
                let payload = try JSONSerialization.jsonObject(with: Data(delivery.payload.utf8)) as? [String: Any]
                #expect(payload?["screen"] as? String == "enrollment" && payload?["id"] as? String == "enr_1")
                #expect((payload?["aps"] as? [String: Any])?["mutable-content"] as? Int == 1)
                let outcomes = try await app.log.read(filter: "events.push.send.>").map(\.storedType.event)
                #expect(outcomes == ["requested", "dispatched", "delivered", "completed"])

                // The app was deleted: Apple answers 410 from now on, and the device is invalidated.
                await standIn.recorder.unregister(Self.token(1))
                let topic = try await app.request("/api/push", method: .post, key: pushKey, json: """
                {"audience": {"topics": ["alerts"]}, "title": "Alert", "body": "Something happened"}
                """)
                let gone = try await Self.completed(app, key: pushKey, try #require(topic.json["pushId"] as? String, "\(topic.status): \(topic.text)"))
                #expect(gone["failed"] as? Int == 1 && (gone["reasons"] as? [String: Int])?["Unregistered"] == 1, "\(gone)")
                try await eventually("the device is invalidated") {
                    try await app.request("/api/devices/\(first.id)", key: deviceKey, headers: first.headers).json["status"] as? String == "invalidated"
                }
                // Registering again after the 410 revives it.
                try await Task.sleep(for: .milliseconds(5))
                let again = try await app.request("/api/devices", method: .post, key: deviceKey, json: """
                {"token": "\(Self.token(1))", "platform": "ios", "bundleId": "com.kordant.shieldai", "environment": "sandbox", "topics": ["alerts"]}
                """)
                #expect(again.json["status"] as? String == "active", "\(again.text)")
            }
        }
    }

    @Test func aRetryIsOnePushAndHostileRequestsStoreNothing() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let pushKey = try await app.key(app: "shieldai", [PushRoutes.scope])
            let deviceKey = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
            let body = #"{"audience": {"everyone": true}, "title": "Hello", "body": "World"}"#
            let a = try await app.request("/api/push", method: .post, key: pushKey, headers: [.idempotencyKey: "k1"], json: body)
            let b = try await app.request("/api/push", method: .post, key: pushKey, headers: [.idempotencyKey: "k1"], json: body)
            #expect(a.status == .accepted && b.status == .accepted)
            #expect(a.json["pushId"] as? String == b.json["pushId"] as? String)
            #expect(try await app.log.read(filter: "events.push.>").count == 1)

            let emoji = String(repeating: "🚨", count: 1500)
            let cases: [(String?, String, HTTPResponse.Status, String)] = [
                (nil, body, .unauthorized, "missing API key"),
                (deviceKey, body, .forbidden, "push:send"),
                (pushKey, #"{"audience": {}, "title": "a", "body": "b"}"#, .unprocessableContent, "exactly one"),
                (pushKey, #"{"audience": {"everyone": true, "topics": ["x"]}, "title": "a", "body": "b"}"#, .unprocessableContent, "exactly one"),
                (pushKey, #"{"audience": {"tokens": ["\#(Self.token(9))"]}, "title": "a", "body": "b"}"#, .unprocessableContent, "not registered"),
                (pushKey, #"{"audience": {"everyone": true}, "title": "", "body": "b"}"#, .unprocessableContent, "title"),
                (pushKey, #"{"audience": {"everyone": true}, "title": "a", "body": "b", "screen": "Bad Screen"}"#, .unprocessableContent, "screen"),
                (pushKey, #"{"audience": {"everyone": true}, "title": "a", "body": "b", "imageUrl": "http://x.y/a.png"}"#, .unprocessableContent, "https"),
                (pushKey, #"{"audience": {"everyone": true}, "title": "a", "body": "\#(emoji)"}"#, .unprocessableContent, "APNs takes at most 4096"),
                (pushKey, #"{"audience": {"everyone": true}, "title": "a", "body": "b", "sendAt": "tomorrow"}"#, .unprocessableContent, "at"),
                (pushKey, #"{"audience": {"everyone": true}, "title": "a", "body": "b", "app": "opl"}"#, .unprocessableContent, "shieldai only"),
                (pushKey, #"{"audience": {"everyone": true}, "title": "a"}"#, .badRequest, "body is required"),
                (pushKey, "{", .badRequest, "JSON"),
            ]
            for (key, body, status, message) in cases {
                let response = try await app.request("/api/push", method: .post, key: key, json: body)
                #expect(response.status == status, "\(body.prefix(100)) → \(response.text)")
                #expect(response.errorMessage.contains(message), "\(body.prefix(100)) → \(response.text)")
            }
            #expect(try await app.log.read(filter: "events.push.>").count == 1)
        }
    }

    /// A notifier died mid-send: one device had its outcome, one was dispatched without one, one
    /// was never dispatched. The next notifier sends only the last, records the middle one in doubt.
    @Test func aRestartedNotifierNeverSendsACopyTwice() async throws {
        try await StandIn.with { standIn in
            try await apps.withTestApp(["ingest"], configure: standIn.configure) { app in
                let deviceKey = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
                var ids: [String] = []
                for n in 1...3 { ids.append(try await Self.register(app, key: deviceKey, token: Self.token(n)).id) }
                let pushId = "psh_" + String(repeating: "1", count: 32)
                try await app.log.append(PushRequested(pushId: pushId, app: "shieldai", audience: PushAudience(everyone: true),
                                                       message: PushMessage(title: "a", body: "b"), requestedBy: "test"))
                try await app.log.append(PushDispatched(pushId: pushId, deviceIds: [ids[0], ids[1]]))
                try await app.log.append(PushDelivered(pushId: pushId, deviceId: ids[0], provider: "apns", providerId: "x"))

                let env = app.env.environment
                let (apns, http) = PushApp.apnsClient(env)
                var dispatcher = PushDispatcher(pushes: env.projections.runner(PushesProjection.self),
                                                devices: env.projections.runner(DevicesProjection.self), log: app.log,
                                                apns: apns, http: [http].compactMap { $0 }, logger: Logger(label: "test"))
                dispatcher.inDoubtAfter = 0
                let restarted = dispatcher
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await env.projections.runner(PushesProjection.self).run() }
                    group.addTask { try await restarted.run() }
                    try await eventually("completed") {
                        await env.projections.runner(PushesProjection.self).read { $0.pushes[pushId]?.completedAt != nil }
                    }
                    group.cancelAll()
                }
                #expect(await standIn.recorder.deliveries.map(\.token) == [Self.token(3)])
                let push = try #require(await env.projections.runner(PushesProjection.self).read { $0.pushes[pushId] })
                #expect(push.delivered == 2 && push.failed == 1 && push.reasons == ["InDoubt": 1] && push.targeted == 3)
            }
        }
    }

    /// Two notifiers at once (as two processes: each with its own folds and consumers) work on one
    /// push: a claim appends only if the push is as its notifier last read it, so every device is
    /// taken by one of them and gets exactly one copy.
    @Test func twoNotifiersAtOnceSendEachCopyOnce() async throws {
        try await StandIn.with { standIn in
            try await apps.withTestApp(["ingest"], configure: standIn.configure) { app in
                let key = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
                let tokens = (100..<160).map(Self.token)
                for token in tokens { _ = try await Self.register(app, key: key, token: token) }
                let pushId = "psh_" + String(repeating: "2", count: 32)
                try await app.log.append(PushRequested(pushId: pushId, app: "shieldai", audience: PushAudience(everyone: true),
                                                       message: PushMessage(title: "Both", body: "at once"), requestedBy: "test"))

                let env = app.env.environment
                func notifier(_ name: String) -> (PushDispatcher, ProjectionRunner<PushesProjection>, ProjectionRunner<DevicesProjection>) {
                    let store = SnapshotStore(directory: app.env.server.directory.appendingPathComponent(name))
                    let logger = Logger(label: name)
                    let pushes = ProjectionRunner(PushesProjection.self, log: app.log, store: store, instance: name, logger: logger)
                    let devices = ProjectionRunner(DevicesProjection.self, log: app.log, store: store, instance: name, logger: logger)
                    let (apns, http) = PushApp.apnsClient(env)
                    var dispatcher = PushDispatcher(pushes: pushes, devices: devices, log: app.log, apns: apns,
                                                    http: [http].compactMap { $0 }, logger: logger)
                    dispatcher.chunkSize = 4 // many claims, so the two meet
                    dispatcher.idle = .milliseconds(20)
                    return (dispatcher, pushes, devices)
                }
                let (first, second) = (notifier("one"), notifier("two"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (dispatcher, pushes, devices) in [first, second] {
                        group.addTask { try await pushes.run() }
                        group.addTask { try await devices.run() }
                        group.addTask { try await dispatcher.run() }
                    }
                    try await eventually("completed") { await first.1.read { $0.pushes[pushId]?.completedAt != nil } }
                    group.cancelAll()
                }
                let sent = await standIn.recorder.deliveries.map(\.token)
                #expect(sent.count == tokens.count && Set(sent) == Set(tokens), "each device once: \(sent.count) copies")
                let claims = try await app.log.read(filter: "events.push.send.*.dispatched.v1").compactMap { $0.payload as? PushDispatched }
                #expect(claims.flatMap(\.deviceIds).count == tokens.count, "no device claimed twice")
                let push = try #require(await first.1.read { $0.pushes[pushId] })
                #expect(push.delivered == tokens.count && push.failed == 0)
            }
        }
    }

    /// The schedule is the request event: a notifier that starts after it was asked (or restarts
    /// while it waits) sends it when it is due, not before.
    @Test func aScheduledPushIsSentWhenDueByWhicheverNotifierRuns() async throws {
        try await StandIn.with { standIn in
            try await apps.withTestApp(["ingest"], configure: standIn.configure) { app in
                let key = try await app.key(app: "shieldai", [DeviceRoutes.registerScope, PushRoutes.scope])
                _ = try await Self.register(app, key: key, token: Self.token(7))
                let due = Timestamp.string(Date().addingTimeInterval(3)) // whole seconds: at least 2 s from now
                let asked = try await app.request("/api/push", method: .post, key: key, json: """
                {"audience": {"everyone": true}, "title": "Reminder", "body": "Town hall tonight", "sendAt": "\(due)"}
                """)
                #expect(asked.status == .accepted && asked.json["status"] as? String == "scheduled", "\(asked.text)")
                let pushId = try #require(asked.json["pushId"] as? String, "\(asked.status): \(asked.text)")

                let env = app.env.environment
                let (apns, http) = PushApp.apnsClient(env)
                let notifier = PushDispatcher(pushes: env.projections.runner(PushesProjection.self),
                                              devices: env.projections.runner(DevicesProjection.self), log: app.log,
                                              apns: apns, http: [http].compactMap { $0 }, logger: Logger(label: "test"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await env.projections.runner(PushesProjection.self).run() }
                    group.addTask { try await notifier.run() }
                    try await Task.sleep(for: .milliseconds(700))
                    #expect(await standIn.recorder.deliveries.isEmpty, "not before it is due")
                    try await eventually("sent when due") {
                        await env.projections.runner(PushesProjection.self).read { $0.pushes[pushId]?.completedAt != nil }
                    }
                    group.cancelAll()
                }
                #expect(Timestamp.millis(Date()) >= Timestamp.millis(due) ?? .max)
                #expect(await standIn.recorder.deliveries.map(\.token) == [Self.token(7)])
            }
        }
    }

    @Test func proximityCellsMeetWhenOneContainsTheOther() {
        let cells = Recipients.CellSet(["9q8yy", "dr5"])
        #expect(cells.meets("9q8yy"))
        #expect(cells.meets("9q8y"), "a coarser device cell holds the site")
        #expect(cells.meets("dr5ru"), "a finer device cell lies in the site's cell")
        #expect(!cells.meets("9q8yz"))
        #expect(!cells.meets("dr4"))
    }

    @Test func localTimesAreEachDevicesOwn() throws {
        let push = PushRequested(pushId: "psh_" + String(repeating: "2", count: 32), app: "pop", audience: PushAudience(everyone: true),
                                 message: PushMessage(title: "a", body: "b"), schedule: PushSchedule(localTime: "2026-11-25T09:00:00"),
                                 requestedBy: "test")
        func device(_ zone: String?) -> DevicesProjection.Device {
            DevicesProjection.Device(deviceId: "dev_" + String(repeating: "0", count: 32), app: "pop", platform: "ios", token: Self.token(1),
                                     bundleId: "x", environment: "production", settings: DeviceSettings(timeZone: zone), personId: nil,
                                     registeredAt: "2026-11-24T00:00:00Z", invalidated: nil)
        }
        #expect(Timestamp.string(PushDispatcher.due(push, for: device("America/Chicago"))) == "2026-11-25T15:00:00Z")
        #expect(Timestamp.string(PushDispatcher.due(push, for: device("Europe/Paris"))) == "2026-11-25T08:00:00Z")
        #expect(Timestamp.string(PushDispatcher.due(push, for: device(nil))) == "2026-11-25T09:00:00Z")
    }
}
