import Hummingbird
import MusterNATS
import ServiceLifecycle

/// What the apps add to one role of a process: long-running parts, HTTP routes, NATS endpoints
/// and pipeline fast paths. The projections they read are not listed here: asking
/// `environment.projections` for a fold is what makes the process run it.
public struct RoleParts: Sendable {
    public typealias RouteAdder = @Sendable (Routes<Router<MusterRequestContext>>) -> Void

    /// Processors, sweepers, loaders: each runs until shutdown.
    public var services: [any Service] = []
    public var routes: [RouteAdder] = []
    /// NATS request endpoints (`$SRV` discovery lists them).
    public var endpoints: [MicroEndpoint] = []
    /// Answers given in the channel pipeline before routing (cached 304s).
    public var fastPaths: [FastPath] = []

    public init() {}
}
