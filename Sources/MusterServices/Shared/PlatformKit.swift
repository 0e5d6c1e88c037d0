import MusterLog
import MusterPlatform
import MusterRuntime

/// The platform parts services share in one process: the keys projection behind API-key auth.
/// Made once per process, on first need.
public struct PlatformKit: Sendable {
    public let keys: ProjectionRunner<KeysProjection>
    /// Key lookups for the routes, remembered between projection moves.
    public let directory: APIKeyDirectory

    public init(environment: MusterEnvironment) {
        keys = ProjectionRunner(KeysProjection.self, log: environment.log, store: environment.snapshots,
                                instance: environment.configuration.instance, logger: environment.logger)
        directory = APIKeyDirectory(runner: keys)
        environment.track(keys)
    }
}
