package import Foundation
import MusterRuntime

/// The alert in each webhook's shape: Muster's JSON, a Slack message, or a PagerDuty Events v2
/// event (a raise triggers, a resolve closes the incident with the same dedup key).
extension AlertWebhookBody {
    package func encoded(for target: AlertWebhookTarget) throws -> Data {
        switch target.format {
        case .json:
            return try JSONEncoder().encode(self)
        case .slack:
            return try JSONEncoder().encode(SlackMessage(text: slackText))
        case .pagerduty:
            let event = PagerDutyEvent(routingKey: target.routingKey ?? "", eventAction: status == "resolved" ? "resolve" : "trigger",
                                       dedupKey: alertId,
                                       payload: status == "resolved" ? nil : .init(summary: String("\(app): \(message)".prefix(1024)),
                                                                                   source: "muster/\(app)", severity: "error",
                                                                                   component: String(self.target.prefix(255)), group: app,
                                                                                   class: rule, customDetails: self))
            return try JSONEncoder().encode(event)
        }
    }

    var slackText: String {
        let figures = threshold.map { String(format: "observed %.3g, threshold %.3g, %d events", observed, $0, count) }
            ?? String(format: "observed %.3g, %d events", observed, count)
        return status == "resolved"
            ? ":white_check_mark: *Resolved* (\(app), \(rule)) \(message)"
            : ":rotating_light: *Alert* (\(app), \(rule) on \(target)) \(message) — \(figures)"
    }
}

/// A Slack incoming webhook's body.
struct SlackMessage: Encodable {
    var text: String
}

/// PagerDuty Events API v2 (`https://events.pagerduty.com/v2/enqueue`).
struct PagerDutyEvent: Encodable {
    struct Payload: Encodable {
        var summary: String
        var source: String
        var severity: String
        var component: String
        var group: String
        var `class`: String
        var customDetails: AlertWebhookBody

        enum CodingKeys: String, CodingKey {
            case summary, source, severity, component, group, `class`, customDetails = "custom_details"
        }
    }
    var routingKey: String
    var eventAction: String
    var dedupKey: String
    var payload: Payload?

    enum CodingKeys: String, CodingKey {
        case routingKey = "routing_key", eventAction = "event_action", dedupKey = "dedup_key", payload
    }
}
