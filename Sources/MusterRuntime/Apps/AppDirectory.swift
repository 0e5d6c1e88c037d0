/// What an app is to the others: one of the apps people install, the platform its operators
/// use, or a service every app uses under its own key.
package enum AppKind: Sendable {
    /// An app people install (OPL, PoP…): keys, devices, pushes and organisations are its.
    case clientApp
    /// The platform: keys for operators.
    case platform
    /// A service every app uses with its own key (the collector, the notifier): no keys of its own.
    case sharedService
}

/// The one registry of apps, derived from the apps a process serves (`MusterApps.directory`):
/// which names keys, organisations and devices may carry, and the roles each app's people hold.
/// The platform asks it; it names no app itself.
package struct AppDirectory: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var name: String
        package var kind: AppKind
        package var roles: Set<String>
        /// Paths that open the app where it is installed (`MusterApp.linkPaths`).
        package var linkPaths: [String] = []
    }

    package let entries: [String: Entry]
    /// Which scopes a key of each app may carry.
    package let keyScopes: KeyScopes

    package init(_ entries: [Entry], keyScopes: KeyScopes) {
        self.entries = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.keyScopes = keyScopes
    }

    /// The apps keys are issued to: the client apps and the platform.
    package var keyApps: Set<String> { Set(entries.values.filter { $0.kind != .sharedService }.map(\.name)) }
    /// The apps people install: organisations, devices and pushes belong to one of them.
    package var clientApps: Set<String> { Set(entries.values.filter { $0.kind == .clientApp }.map(\.name)) }
    /// The roles `app`'s people may hold (none for an app without people, or an unknown one).
    package func roles(of app: String) -> Set<String> { entries[app]?.roles ?? [] }
}
