import Logging
package import MusterEvents
package import MusterLog
import MusterPlatform
package import MusterRuntime

/// Analytics and crashes for every app: collection (collector), alert rules and their delivery
/// (notifier), and the reports and dashboards (query).
package struct AnalyticsApp: MusterApp {
    package let name = "analytics"
    package var kind: AppKind { .sharedService }
    package var events: EventCatalog { .analytics }
    package var projections: [any Projection.Type] { [AnalyticsProjection.self, FunnelProjection.self] }
    package var scopes: [String] { [] }
    /// Every app's events and crashes come through the collector, under that app's key.
    package var sharedScopes: [String] { AnalyticsScopes.all }
    package var settings: [any AppSettings.Type] { [AlertSettings.self] }

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .collector:
            let collector = Collector(log: environment.log)
            parts.appends([ScreenViewed.self, ScreenLoaded.self, APICalled.self, FunnelReached.self, CustomTracked.self, CrashRecorded.self])
            parts.routes.append { CollectorRoutes.add(to: $0, collector: collector) }
        case .notifier:
            let runner = environment.projections.runner(AnalyticsProjection.self)
            parts.appends([AlertRaised.self, AlertResolved.self])
            parts.services.append(AlertPublisher(runner: runner, log: environment.log, logger: environment.logger))
            let targets = environment.configuration[AlertSettings.self].webhooks
            guard !targets.isEmpty else {
                environment.logger.notice("no MUSTER_ALERT_WEBHOOKS: alerts are recorded in the log only")
                return
            }
            let notifier = WebhookNotifier(targets: targets, logger: environment.logger)
            parts.services.append(EventProcessor(name: "alert-webhooks", filterSubjects: ["events.analytics.alert.>"], log: environment.log,
                                                 logger: environment.logger, handler: notifier.handle))
        case .query:
            let keys = APIKeyDirectory.shared(in: environment)
            let model = AnalyticsReadModel(analytics: environment.projections.runner(AnalyticsProjection.self),
                                           funnels: environment.projections.runner(FunnelProjection.self))
            let rate = RateLimiter(perMinute: environment.configuration.readRatePerMinute)
            environment.sharing.register(rate, as: "analytics-reads")
            let templates = PageTemplates.shared(in: environment)
            parts.routes.append { routes in
                AnalyticsRoutes.add(to: routes, rate: rate, model: model)
                DashboardRoutes.add(to: routes, keys: keys, model: model, templates: templates)
            }
        case .ingest, .geocode, .moderation:
            break
        }
    }
}
