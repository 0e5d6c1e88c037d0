package import MusterEvents
package import MusterLog
package import ServiceLifecycle

/// The apps a process serves, and what they add up to: the events, the scopes, the folds, and
/// each role as the sum of every app's part in it. `MusterProcess.apps` is the production list;
/// a test target composes the few apps it tests the same way.
package struct MusterApps: Sendable {
    package let list: [any MusterApp]

    package init(_ list: [any MusterApp]) {
        self.list = list
    }

    /// Every event type of every app.
    package var catalog: EventCatalog {
        var catalog = EventCatalog()
        for app in list { catalog.merge(app.events) }
        return catalog
    }

    /// Every scope a route asks for; a key with any other scope could open nothing.
    package var scopes: [String] { Set(list.flatMap { $0.scopes + $0.sharedScopes }).sorted() }

    /// Which scopes a key of each app may carry.
    package var keyScopes: KeyScopes {
        var own: [String: Set<String>] = [:]
        for app in list { own[app.name, default: []].formUnion(app.scopes) }
        return KeyScopes(own: own, shared: Set(list.flatMap(\.sharedScopes)))
    }

    /// The registry the platform asks which apps and roles exist.
    package var directory: AppDirectory {
        AppDirectory(list.map { AppDirectory.Entry(name: $0.name, kind: $0.kind, roles: Set($0.roles), linkPaths: $0.linkPaths) }, keyScopes: keyScopes)
    }

    /// Every settings type the apps read, each once.
    package var settings: [any AppSettings.Type] {
        var seen = Set<ObjectIdentifier>()
        return list.flatMap(\.settings).filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Every fold the apps define.
    package var projections: [any Projection.Type] { list.flatMap(\.projections) }

    /// The roles `names` asks for, each with what every app adds to it. The folds they ask for
    /// are in `environment.projections`; `services(of:environment:)` runs them once.
    package func modules(_ names: [String], environment: MusterEnvironment) -> [any MusterServiceModule] {
        ServiceRole.allCases.filter { names.contains($0.name) }.map { RoleService(role: $0, parts: parts(for: $0, environment: environment)) }
    }

    /// What every app adds to `role`.
    package func parts(for role: ServiceRole, environment: MusterEnvironment) -> RoleParts {
        var parts = RoleParts()
        for app in list { app.add(to: &parts, role: role, environment: environment) }
        return parts
    }

    /// What runs besides HTTP: every fold the roles asked for, once, then each role's own parts.
    package func services(of modules: [any MusterServiceModule], environment: MusterEnvironment) -> [any Service] {
        let services: [any Service] = [LogWatch(log: environment.log, logger: environment.logger), environment.sharing]
            + environment.projections.services + modules.flatMap { $0.services(in: environment) } + environment.processServices
        let replays = DeadLetterReplays.shared(in: environment)
        for case let processor as EventProcessor in services { replays.register(processor) }
        return services
    }
}
