import MusterLog
import MusterOPL
import MusterRuntime

/// The OPL parts services share in one process: the OPL fold and the views over it.
/// Made once per process, on first need.
public struct OPLKit: Sendable {
    public let runner: ProjectionRunner<OPLProjection>
    public let model: OPLReadModel
    public let readRate: RateLimiter
    public let writeRate: RateLimiter

    public init(environment: MusterEnvironment) {
        runner = ProjectionRunner(OPLProjection.self, log: environment.log, store: environment.snapshots,
                                  instance: environment.configuration.instance, logger: environment.logger)
        model = OPLReadModel(runner: runner)
        readRate = RateLimiter(perMinute: environment.configuration.readRatePerMinute)
        writeRate = RateLimiter(perMinute: environment.configuration.writeRatePerMinute)
        environment.track(runner)
    }
}
