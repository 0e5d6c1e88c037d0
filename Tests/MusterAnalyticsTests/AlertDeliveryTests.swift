import Foundation
import Hummingbird
import HummingbirdTesting
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterRuntime
import MusterTesting
import NIOFoundationEssentialsCompat
import Synchronization
import Testing

@Suite("Alerts: raised and resolved as events, delivered to webhooks")
struct AlertDeliveryTests {
    /// A webhook that fails its first call, then takes everything.
    final class Receiver: Sendable {
        let bodies = Mutex<[AlertWebhookBody]>([])
        let calls = Mutex(0)

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("/hook") { request, _ -> HTTPResponse.Status in
                let call = self.calls.withLock { $0 += 1; return $0 }
                guard call > 1 else { return .internalServerError }
                let body = try await request.body.collect(upTo: 64 * 1024)
                let alert = try JSONDecoder().decode(AlertWebhookBody.self, from: body)
                self.bodies.withLock { $0.append(alert) }
                return .noContent
            }
            return router
        }
    }

    @Test func anErrorSpikeRaisesAnAlertThatResolvesAndEveryWebhookHearsBoth() async throws {
        let receiver = Receiver()
        try await Application(router: receiver.router()).test(.live) { hook in
            let port = try #require(hook.port)
            try await apps.withTestApp(["collector", "notifier", "query"], configure: { $0[AlertSettings.self].webhooks = [AlertWebhookTarget(format: .json, url: "http://127.0.0.1:\(port)/hook")] }) { app in
                let key = try await app.key(app: "offleash", CollectorTests.writer)
                // An alert recorded three days ago (a webhook added to an old log): not delivered.
                let old = AlertRaised(alertId: "al_00000000000000aa", rule: .errorRate, app: "offleash", target: "GET /old",
                                      windowStart: "2026-01-01T00:00:00Z", windowEnd: "2026-01-01T00:05:00Z", observed: 0.5,
                                      threshold: 0.05, count: 40, message: "an old alert")
                let envelope = EventEnvelope(source: "test", time: Date().addingTimeInterval(-3 * 86_400), data: old)
                _ = try await app.log.jetStream.publish(OutgoingMessage(subject: AlertRaised.eventType.subject(aggregateID: old.alertId),
                                                                        payload: try JSONEncoder().encode(envelope)))
                let now = Wire.now()
                // Ten minutes ago: 30 bookings, 9 failed (30 %).
                let spike = (0..<30).map { i in
                    Wire.apiCall("spike-\(i)", status: i < 9 ? 503 : 201, at: Timestamp.string(millis: now - 600_000 + Int64(i) * 1000))
                }
                _ = try await app.request("/api/analytics/events", method: .post, key: key, json: Wire.batch(sentAt: Timestamp.string(millis: now), spike))
                // Now: 30 healthy ones.
                let calm = (0..<30).map { Wire.apiCall("calm-\($0)", status: 201) }
                _ = try await app.request("/api/analytics/events", method: .post, key: key, json: Wire.batch(calm))

                try await eventually("both alert events in the log") {
                    try await app.log.read(filter: "events.analytics.alert.>").count == 3
                }
                let events = Array(try await app.log.read(filter: "events.analytics.alert.>").dropFirst())
                let raised = try #require(events.first?.payload as? AlertRaised)
                let resolved = try #require(events.last?.payload as? AlertResolved)
                #expect(raised.rule == .errorRate && raised.target == "POST /bookings" && raised.app == "offleash")
                #expect(raised.observed > 0.05 && raised.count >= 20)
                #expect(resolved.alertId == raised.alertId)

                try await eventually("the webhook heard both", timeout: .seconds(30)) { receiver.bodies.withLock { $0.count } >= 2 }
                let heard = receiver.bodies.withLock { $0 }
                #expect(heard.map(\.status) == ["raised", "resolved"])
                #expect(heard.allSatisfy { $0.alertId == raised.alertId }) // not the old one
                #expect(receiver.calls.withLock { $0 } >= 3) // the first attempt failed and was retried

                let last = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.lastSeq
                try await app.settled("analytics", at: last)
                let alerts = try JSONSerialization.jsonObject(with: Data(buffer: try await app.request("/api/analytics/alerts", key: key).body)) as? [[String: Any]]
                #expect(alerts?.count == 2)
                let listed = alerts?.first { $0["alert_id"] as? String == raised.alertId }
                #expect(listed?["resolved_at"] as? String == resolved.resolvedAt)
            }
        }
    }
}
