package import MusterLog
package import MusterRuntime

/// The OPL pieces the roles of one process share: the fold, the views over it and the rate
/// limits. Made once per process, on first need (`OPLParts.shared(in:)`).
package struct OPLParts: Sendable {
    package let runner: ProjectionRunner<OPLProjection>
    package let model: OPLReadModel
    /// Where blocklist entries reach (the Public Suffix List, read once here).
    package let rules: BlocklistRules
    package let readRate: RateLimiter
    package let writeRate: RateLimiter

    package static func shared(in environment: MusterEnvironment) -> OPLParts {
        environment.shared {
            let runner = environment.projections.runner(OPLProjection.self)
            let rules = BlocklistRules(suffixes: PublicSuffixList.load())
            let (readRate, writeRate) = (RateLimiter(perMinute: environment.configuration.readRatePerMinute),
                                         RateLimiter(perMinute: environment.configuration.writeRatePerMinute))
            environment.sharing.register(readRate, as: "opl-reads")
            environment.sharing.register(writeRate, as: "opl-writes")
            return OPLParts(runner: runner, model: OPLReadModel(runner: runner, rules: rules), rules: rules, readRate: readRate, writeRate: writeRate)
        }
    }
}
