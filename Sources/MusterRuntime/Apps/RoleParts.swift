package import Hummingbird
package import MusterEvents
package import MusterNATS
package import ServiceLifecycle

/// What the apps add to one role of a process: long-running parts, HTTP routes, NATS endpoints
/// and pipeline fast paths. The projections they read are not listed here: asking
/// `environment.projections` for a fold is what makes the process run it.
package struct RoleParts: Sendable {
    package typealias RouteAdder = @Sendable (Routes<Router<MusterRequestContext>>) -> Void

    /// Processors, sweepers, loaders: each runs until shutdown.
    package var services: [any Service] = []
    package var routes: [RouteAdder] = []
    /// NATS request endpoints (`$SRV` discovery lists them).
    package var endpoints: [MicroEndpoint] = []
    /// Answers given in the channel pipeline before routing (cached 304s).
    package var fastPaths: [FastPath] = []
    /// WebSocket endpoints (the field app's live updates).
    package var webSockets: [WebSocketRoute] = []
    /// Informational answers sent as a request's head arrives (the field uploads' 104).
    package var interimAnswers: [InterimAnswer] = []
    /// What must be in place before the role takes traffic (`/ready` waits for each).
    package var readiness: [ReadinessCheck] = []
    /// The authentication step's prover of credentials: the platform sets it, once for every role.
    package var authenticator: (any RequestAuthenticator)?
    /// Subject filters of the events the role appends (`events.opl.action.*.geocoded.v1`): what
    /// its NATS user must be allowed to publish, and all it should be (`deploy/nats/permissions.conf`
    /// is checked against them).
    package var appends: [String] = []

    /// Declares that the role appends events of these types.
    package mutating func appends(_ types: [any EventPayload.Type]) {
        appends += types.map { $0.eventType.subjectFilter }
    }

    package init() {}
}
