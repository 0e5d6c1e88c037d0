import Hummingbird
import MusterNATS
import ServiceLifecycle

/// One role of a process as the HTTP application and discovery see it: what every app added to it.
struct RoleService: MusterServiceModule {
    let role: ServiceRole
    let parts: RoleParts

    var name: String { role.name }
    var summary: String { role.summary }

    func services(in environment: MusterEnvironment) -> [any Service] { parts.services }

    func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        for add in parts.routes { add(routes) }
    }

    func endpoints(in environment: MusterEnvironment) -> [MicroEndpoint] { parts.endpoints }
    func fastPaths(in environment: MusterEnvironment) -> [FastPath] { parts.fastPaths }
    func webSockets(in environment: MusterEnvironment) -> [WebSocketRoute] { parts.webSockets }
    func interimAnswers(in environment: MusterEnvironment) -> [InterimAnswer] { parts.interimAnswers }
    func readiness(in environment: MusterEnvironment) -> [ReadinessCheck] { parts.readiness }
    func authenticator(in environment: MusterEnvironment) -> (any RequestAuthenticator)? { parts.authenticator }
}
