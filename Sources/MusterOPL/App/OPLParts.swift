public import MusterLog
public import MusterRuntime

/// The OPL pieces the roles of one process share: the fold, the views over it and the rate
/// limits. Made once per process, on first need (`OPLParts.shared(in:)`).
public struct OPLParts: Sendable {
    public let runner: ProjectionRunner<OPLProjection>
    public let model: OPLReadModel
    public let readRate: RateLimiter
    public let writeRate: RateLimiter

    public static func shared(in environment: MusterEnvironment) -> OPLParts {
        environment.shared {
            let runner = environment.projections.runner(OPLProjection.self)
            return OPLParts(runner: runner, model: OPLReadModel(runner: runner),
                            readRate: RateLimiter(perMinute: environment.configuration.readRatePerMinute),
                            writeRate: RateLimiter(perMinute: environment.configuration.writeRatePerMinute))
        }
    }
}
