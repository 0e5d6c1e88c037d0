package import MusterEvents
package import MusterLog

/// One app (or the platform every app stands on), as a process sees it: the events it owns, the
/// scopes its routes ask for, and what it adds to each role. A process is composed from the list
/// of apps (`MusterProcess.apps`) and the roles asked for; an app added to that list is served.
package protocol MusterApp: Sendable {
    /// Short and lowercase: the first part of its event types (`opl.action.submitted.v1`).
    var name: String { get }
    /// Whether people install it, operators use it, or every app uses it with its own key.
    var kind: AppKind { get }
    /// The roles its people may hold, as its role enum names them (`OFFLEASHRole.allCases`).
    var roles: [String] { get }
    /// Every event type the app owns, with its upcasters.
    var events: EventCatalog { get }
    /// Every fold the app defines (`muster replay` can rebuild each).
    var projections: [any Projection.Type] { get }
    /// The scopes of the app's own routes: only keys of this app (named `name`) may carry them.
    var scopes: [String] { get }
    /// Scopes of a service every app uses (the collector, pushes, device registration): a key of
    /// any app may carry them, and what it touches is that app's.
    var sharedScopes: [String] { get }
    /// The settings types it reads from its own `MUSTER_*` variables, read and checked at start.
    var settings: [any AppSettings.Type] { get }
    /// Paths on Muster's domain that open the app where it is installed (universal links, Android
    /// app links), `*` matching the rest of a path: `/field/link/*`. The domain's association
    /// files name them; a browser without the app is answered a page that says so.
    var linkPaths: [String] { get }
    /// Adds the app's part of `role` to `parts`; called once for each role the process takes.
    /// Shared pieces (a fold, a rate limiter) come from `environment`, so two roles in one process
    /// share them.
    func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment)
}

extension MusterApp {
    package var sharedScopes: [String] { [] }
    package var roles: [String] { [] }
    package var settings: [any AppSettings.Type] { [] }
    package var linkPaths: [String] { [] }
}
