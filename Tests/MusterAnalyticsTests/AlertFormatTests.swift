import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MusterAnalytics
@testable import MusterEvents
import MusterRuntime
import NIOFoundationEssentialsCompat
import Synchronization
import Testing

@Suite("Alerts in Slack's and PagerDuty's shapes, chosen per URL in configuration")
struct AlertFormatTests {
    @Test func targetsAreReadFromTheirEntriesAndBadOnesNamedWithoutTheirSecret() throws {
        #expect(try AlertWebhookTarget.parse("https://example.com/hook") == AlertWebhookTarget(format: .json, url: "https://example.com/hook"))
        #expect(try AlertWebhookTarget.parse("slack=https://hooks.slack.com/services/T/B/X").format == .slack)
        let pager = try AlertWebhookTarget.parse("pagerduty=https://events.pagerduty.com/v2/enqueue#R0UTINGKEY123")
        #expect(pager.url == "https://events.pagerduty.com/v2/enqueue" && pager.routingKey == "R0UTINGKEY123")
        #expect("\(pager)".contains("R0UTINGKEY") == false)
        #expect(throws: ConfigurationError.self) { try AlertWebhookTarget.parse("slack=ftp://x") }
        #expect(throws: ConfigurationError.self) { try AlertWebhookTarget.parse("pagerduty=https://events.pagerduty.com/v2/enqueue") }
        do {
            _ = try AlertWebhookTarget.parse("pagerduty=https://events.pagerduty.com/v2/enqueue#not a key!")
            Issue.record("a bad routing key is refused")
        } catch {
            #expect(!"\(error)".contains("not a key"), "the error never repeats the key: \(error)")
        }
        let configuration = try MusterConfiguration.fromEnvironment(["MUSTER_ALERT_WEBHOOKS": "https://a.example/hook, slack=https://hooks.slack.com/x"],
                                                                    modules: [AlertSettings.self])
        #expect(configuration[AlertSettings.self].webhooks.map(\.format) == [.json, .slack])
        let error = #expect(throws: ConfigurationError.self) {
            try MusterConfiguration.fromEnvironment(["MUSTER_ALERT_WEBHOOKS": "ftp://x"], modules: [AlertSettings.self])
        }
        #expect(error?.description.hasPrefix("MUSTER_ALERT_WEBHOOKS=") == true, "the variable is named: \(String(describing: error))")
    }

    @Test func aRaiseTriggersAndAResolveClosesThePagerDutyIncidentAndSlackHearsBoth() async throws {
        let bodies = Mutex<[String: [Data]]>([:])
        let router = Router()
        router.post("/{kind}") { request, context -> HTTPResponse.Status in
            let kind = try context.parameters.require("kind")
            let body = try await request.body.collect(upTo: 64 * 1024)
            let data = Data(buffer: body)
            bodies.withLock { $0[kind, default: []].append(data) }
            return .accepted
        }
        try await Application(router: router).test(.live) { receiver in
            let port = try #require(receiver.port)
            let notifier = WebhookNotifier(targets: [
                try AlertWebhookTarget.parse("slack=http://127.0.0.1:\(port)/slack"),
                try AlertWebhookTarget.parse("pagerduty=http://127.0.0.1:\(port)/pagerduty#ROUTING123"),
            ], logger: Logger(label: "test"))
            let raised = AlertRaised(alertId: "al_00000000000000ab", rule: .errorRate, app: "offleash", target: "POST /bookings",
                                     windowStart: "2026-11-24T10:00:00Z", windowEnd: "2026-11-24T10:05:00Z", observed: 0.3, threshold: 0.05,
                                     count: 30, message: "30% of POST /bookings failed")
            let resolved = AlertResolved(alertId: raised.alertId, rule: .errorRate, app: "offleash", target: "POST /bookings",
                                         resolvedAt: "2026-11-24T10:15:00Z", observed: 0.0, count: 30, message: "POST /bookings recovered")
            for (index, payload) in [raised as any EventPayload, resolved].enumerated() {
                try await notifier.handle(RecordedEvent(sequence: UInt64(index + 1), subject: payload.eventType.subject(aggregateID: raised.alertId),
                                                        id: "e\(index)", source: "test", time: Timestamp.string(Date()), actor: nil,
                                                        traceparent: nil, storedType: payload.eventType, aggregateID: raised.alertId,
                                                        payload: payload))
            }
            let heard = bodies.withLock { $0 }.mapValues { $0.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } }
            let slack = heard["slack"]?.compactMap { $0["text"] as? String } ?? []
            #expect(slack.count == 2 && slack[0].contains("Alert") && slack[0].contains("30% of POST /bookings failed"))
            #expect(slack.last?.contains("Resolved") == true)
            let pager = heard["pagerduty"] ?? []
            #expect(pager.map { $0["event_action"] as? String } == ["trigger", "resolve"])
            #expect(pager.allSatisfy { $0["routing_key"] as? String == "ROUTING123" && $0["dedup_key"] as? String == raised.alertId })
            let payload = pager.first?["payload"] as? [String: Any]
            #expect(payload?["severity"] as? String == "error" && payload?["source"] as? String == "muster/offleash")
            #expect((payload?["summary"] as? String)?.contains("POST /bookings") == true)
        }
    }
}
