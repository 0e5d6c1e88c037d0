import MusterAnalytics
import MusterLog
import MusterRuntime

/// The analytics parts services share in one process: the two folds, the read model over them,
/// and the collector. Made once per process, on first need.
public struct AnalyticsKit: Sendable {
    public let runner: ProjectionRunner<AnalyticsProjection>
    public let funnels: ProjectionRunner<FunnelProjection>
    public let model: AnalyticsReadModel
    public let collector: Collector
    public let readRate: RateLimiter

    public init(environment: MusterEnvironment) {
        runner = ProjectionRunner(AnalyticsProjection.self, log: environment.log, store: environment.snapshots,
                                  instance: environment.configuration.instance, logger: environment.logger)
        funnels = ProjectionRunner(FunnelProjection.self, log: environment.log, store: environment.snapshots,
                                   instance: environment.configuration.instance, logger: environment.logger)
        model = AnalyticsReadModel(analytics: runner, funnels: funnels)
        collector = Collector(log: environment.log)
        readRate = RateLimiter(perMinute: environment.configuration.readRatePerMinute)
        // Not tracked here: the two folds run in different services (the notifier runs `analytics`,
        // query runs both, the collector neither), and `/ready` must list only the folds this
        // process runs. `MusterProcess.modules` tracks each where it starts it.
    }
}
