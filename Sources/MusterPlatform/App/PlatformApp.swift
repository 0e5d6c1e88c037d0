package import MusterEvents
package import MusterLog
package import MusterRuntime

/// The platform every app stands on: API keys (their events, fold and routes), people (accounts,
/// sessions, forgetting; devices and their push tokens; each app's routes speak its own contract over `People`, and the token
/// keys are public at `/.well-known/jwks.json`), and validated appends over NATS for scripts in
/// any language.
package struct PlatformApp: MusterApp {
    package static let appName = Access.operatorApp
    package var name: String { Self.appName }
    package var kind: AppKind { .platform }
    package var events: EventCatalog { .platform }
    package var projections: [any Projection.Type] { [KeysProjection.self, PeopleProjection.self, DevicesProjection.self] }
    /// Operators' keys (`platform_…`) only.
    package var scopes: [String] { [PlatformRoutes.adminScope] }
    package var settings: [any AppSettings.Type] { [SignInSettings.self, InvitationSettings.self, AppLinkSettings.self, PageSettings.self] }
    /// Every app registers its own installations.
    package var sharedScopes: [String] { [DeviceRoutes.registerScope] }

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        // Every role's routes stand behind the one authentication step (the notifier serves none
        // but health, and so runs no keys fold for it).
        if role != .notifier { parts.authenticator = PlatformAuthenticator(environment: environment) }
        switch role {
        case .ingest:
            parts.endpoints.append(LogAppendEndpoint.make(log: environment.log))
            parts.appends.append("events.>") // the endpoint appends any type the catalog knows
            let people = People.shared(in: environment)
            parts.routes.append { JWKSRoutes.add(to: $0, people: people) }
            let links = environment.configuration[AppLinkSettings.self]
            parts.routes.append { AppLinkRoutes.add(to: $0, apps: environment.apps, settings: links) }
            let devices = Devices.shared(in: environment)
            parts.routes.append { DeviceRoutes.add(to: $0, devices: devices) }
            // The operator console issues and revokes keys (appends), so it lives where appends do.
            let (keys, templates) = (APIKeyDirectory.shared(in: environment), PageTemplates.shared(in: environment))
            parts.routes.append { AdminConsole.add(to: $0, keys: keys, environment: environment, templates: templates) }
        case .query:
            let keys = APIKeyDirectory.shared(in: environment)
            parts.routes.append { PlatformRoutes.add(to: $0, keys: keys, environment: environment) }
        default:
            break
        }
    }
}

extension APIKeyDirectory {
    /// The process's key directory over its keys fold; every route that takes a key uses it.
    package static func shared(in environment: MusterEnvironment) -> APIKeyDirectory {
        environment.shared { APIKeyDirectory(runner: environment.projections.runner(KeysProjection.self), scopes: environment.keyScopes) }
    }
}
