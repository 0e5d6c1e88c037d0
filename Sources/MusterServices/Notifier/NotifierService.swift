import MusterAnalytics
import MusterLog
import MusterRuntime
import ServiceLifecycle

/// notifier: delivers alerts to the webhooks in `MUSTER_ALERT_WEBHOOKS` (pushes come later).
public struct NotifierService: MusterServiceModule {
    public let name = "notifier"
    public let summary = "alert delivery to webhooks"
    let runners: [any Service]

    public init(runners: [any Service]) { self.runners = runners }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        let urls = environment.configuration.alertWebhooks
        guard !urls.isEmpty else {
            environment.logger.notice("no MUSTER_ALERT_WEBHOOKS: alerts are recorded in the log only")
            return runners
        }
        let notifier = WebhookNotifier(urls: urls, logger: environment.logger)
        return runners + [EventProcessor(name: "alert-webhooks", filterSubjects: ["events.analytics.alert.>"], log: environment.log,
                                         logger: environment.logger, handler: notifier.handle)]
    }
}
