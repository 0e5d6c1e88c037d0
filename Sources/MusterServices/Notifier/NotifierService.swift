import MusterAnalytics
import MusterLog
import MusterRuntime
import ServiceLifecycle

/// notifier: runs the alert rules over the analytics fold, records their decisions as
/// `analytics.alert.*` events, and delivers those to the webhooks in `MUSTER_ALERT_WEBHOOKS`
/// (pushes come later).
public struct NotifierService: MusterServiceModule {
    public let name = "notifier"
    public let summary = "alert rules and delivery to webhooks"
    let analytics: AnalyticsKit
    let runners: [any Service]

    public init(analytics: AnalyticsKit, runners: [any Service]) {
        self.analytics = analytics
        self.runners = runners
    }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        let publisher = AlertPublisher(runner: analytics.runner, log: environment.log, logger: environment.logger)
        let urls = environment.configuration.alertWebhooks
        guard !urls.isEmpty else {
            environment.logger.notice("no MUSTER_ALERT_WEBHOOKS: alerts are recorded in the log only")
            return runners + [publisher]
        }
        let notifier = WebhookNotifier(urls: urls, logger: environment.logger)
        return runners + [publisher, EventProcessor(name: "alert-webhooks", filterSubjects: ["events.analytics.alert.>"], log: environment.log,
                                         logger: environment.logger, handler: notifier.handle)]
    }
}
