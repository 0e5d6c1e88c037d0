import Logging
package import MusterEvents
package import MusterLog
import MusterPlatform
package import MusterRuntime

/// PoP (civics learning): each install's flashcard progress and bookmarks, merged across the
/// installs of a person who links them (`LearnerProgress`); newsletter signups with an organisers'
/// export; and the civics-progress projection organisers read. Organisations, states and decks are
/// configuration (`MUSTER_POP_CONFIG`). The app has no accounts of its own: installs send the
/// app's key; a person's token only links, and organisers sign in with accounts.
package struct PoPApp: MusterApp {
    package let name = "pop"
    package var kind: AppKind { .clientApp }
    package var roles: [String] { PoPRole.names }
    package var events: EventCatalog { .pop }
    package var projections: [any Projection.Type] { [PoPProjection.self, NewsletterProjection.self, CivicsProjection.self] }
    package var scopes: [String] { [PoPRoutes.readScope, PoPRoutes.writeScope, NewsletterRoutes.exportScope] }
    package var settings: [any AppSettings.Type] { [PoPSettings.self] }

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let config = Self.config(environment)
            let sync = CivicsSync(log: environment.log, runner: environment.projections.runner(PoPProjection.self), config: config)
            let (keys, people) = (APIKeyDirectory.shared(in: environment), People.shared(in: environment))
            let newsletter = Newsletter(log: environment.log, runner: environment.projections.runner(NewsletterProjection.self),
                                        people: people, config: config)
            let civics = environment.projections.runner(CivicsProjection.self)
            parts.appends([ProgressSynced.self, InstallLinked.self, InstallUnlinked.self, NewsletterSubscribed.self, NewsletterUnsubscribed.self])
            parts.routes.append { routes in
                PoPRoutes.add(to: routes, sync: sync)
                NewsletterRoutes.add(to: routes, newsletter: newsletter, people: people)
                // Organisers sign in here (a sign-in is a session event, and the query role never appends).
                CivicsPageRoutes.add(to: routes, runner: civics, config: config, keys: keys, people: people)
            }
            AccountRoutes.add(Self.accounts(environment.configuration[PoPSettings.self], sync: sync), to: &parts, environment: environment)
        case .query:
            let config = Self.config(environment)
            let civics = environment.projections.runner(CivicsProjection.self)
            parts.routes.append { CivicsRoutes.add(to: $0, runner: civics, config: config) }
        case .geocode, .moderation, .collector, .notifier:
            break
        }
    }

    /// The configuration folder, or none (every change and signup is then refused, and says why in the log).
    static func config(_ environment: MusterEnvironment) -> PoPConfig {
        environment.shared {
            do {
                return try PoPConfig(folder: environment.configuration[PoPSettings.self].configPath)
            } catch {
                environment.logger.error("PoP configuration unreadable; progress and signups are refused until it is fixed",
                                         metadata: ["folder": "\(environment.configuration[PoPSettings.self].configPath)", "error": "\(error)"])
                return PoPConfig(orgs: [], decks: Decks([]))
            }
        }
    }
}
