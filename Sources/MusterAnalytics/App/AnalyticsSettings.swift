import MusterRuntime
import Foundation

/// Where alerts (raised and resolved) are POSTed: Muster's JSON, Slack or PagerDuty Events v2
/// (`AlertWebhookTarget`); none means they are only recorded in the log.
package struct AlertSettings: AppSettings, Equatable {
    package var webhooks: [AlertWebhookTarget] = []

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case webhooks = "MUSTER_ALERT_WEBHOOKS"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .webhooks:
            webhooks = try value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .map(AlertWebhookTarget.parse)
        }
    }
}
