import Hummingbird
import MusterAnalytics
import MusterRuntime
import ServiceLifecycle

/// collector: analytics batches and crash reports from every app (`/api/analytics/events`,
/// `/api/analytics/crashes`), redacted before they reach the log. It folds nothing, so it can run
/// as many copies as the traffic needs; the alert rules run in the notifier.
public struct CollectorService: MusterServiceModule {
    public let name = "collector"
    public let summary = "analytics and crash collection"
    let platform: PlatformKit
    let analytics: AnalyticsKit
    let runners: [any Service]

    public init(platform: PlatformKit, analytics: AnalyticsKit, runners: [any Service]) {
        self.platform = platform
        self.analytics = analytics
        self.runners = runners
    }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        runners
    }

    public func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        CollectorRoutes.add(to: routes, keys: platform.directory, collector: analytics.collector)
    }
}
