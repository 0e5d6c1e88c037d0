package import MusterEvents
package import MusterLog
package import MusterRuntime

/// Another client app as the platform sees it: a name and the roles of its people, nothing else.
/// A test composes it beside the app it tests when it needs that app's neighbour (an organisation
/// of another app, a key of another app) without linking the neighbour's module.
package struct ClientApp: MusterApp {
    package let name: String
    package let roles: [String]
    package var kind: AppKind { .clientApp }
    package var events: EventCatalog { EventCatalog() }
    package var projections: [any Projection.Type] { [] }
    package var scopes: [String] { [] }

    package init(name: String, roles: [String]) {
        self.name = name
        self.roles = roles
    }

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {}
}
