package import Hummingbird
package import MusterNATS
package import ServiceLifecycle

/// One Muster service (`ingest`, `query`, …): a thin composition of domain modules.
/// `muster serve NAME…` runs any subset of them in one process, on one HTTP port.
package protocol MusterServiceModule: Sendable {
    /// The name on the command line and in service discovery.
    var name: String { get }
    var summary: String { get }
    /// Long-running parts besides HTTP: projection runners, consumers.
    func services(in environment: MusterEnvironment) -> [any Service]
    /// HTTP routes.
    func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment)
    /// NATS request endpoints (`$SRV` discovery lists them).
    func endpoints(in environment: MusterEnvironment) -> [MicroEndpoint]
    /// Answers given in the channel pipeline before routing (cached 304s).
    func fastPaths(in environment: MusterEnvironment) -> [FastPath]
    /// WebSocket endpoints on the HTTP port.
    func webSockets(in environment: MusterEnvironment) -> [WebSocketRoute]
    /// Informational (1xx) answers sent in the channel pipeline as a request's head arrives.
    func interimAnswers(in environment: MusterEnvironment) -> [InterimAnswer]
    /// What must be in place before the service takes traffic (`/ready`).
    func readiness(in environment: MusterEnvironment) -> [ReadinessCheck]
    /// What proves a request's credentials (the platform's keys and people), if this module brings it.
    func authenticator(in environment: MusterEnvironment) -> (any RequestAuthenticator)?
}

extension MusterServiceModule {
    package func services(in environment: MusterEnvironment) -> [any Service] { [] }
    package func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {}
    package func endpoints(in environment: MusterEnvironment) -> [MicroEndpoint] { [] }
    package func fastPaths(in environment: MusterEnvironment) -> [FastPath] { [] }
    package func webSockets(in environment: MusterEnvironment) -> [WebSocketRoute] { [] }
    package func interimAnswers(in environment: MusterEnvironment) -> [InterimAnswer] { [] }
    package func readiness(in environment: MusterEnvironment) -> [ReadinessCheck] { [] }
    package func authenticator(in environment: MusterEnvironment) -> (any RequestAuthenticator)? { nil }
}
