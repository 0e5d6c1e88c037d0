import Logging
package import MusterEvents
package import MusterLog
import MusterNotifications
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
    /// Links from the web and from messages open the app on `<screen>/<id>`, as its pushes' deep links do.
    package var linkPaths: [String] { ["/\(name)/link/*"] }
    package var events: EventCatalog { .pop }
    package var projections: [any Projection.Type] { [PoPProjection.self, NewsletterProjection.self, CivicsProjection.self, CalendarProjection.self] }
    package var scopes: [String] { [PoPRoutes.readScope, PoPRoutes.writeScope, NewsletterRoutes.exportScope] }
    package var settings: [any AppSettings.Type] { [PoPSettings.self] }

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let config = Self.config(environment)
            let sync = CivicsSync(log: environment.log, runner: environment.projections.runner(PoPProjection.self), config: config)
            let (keys, people) = (APIKeyDirectory.shared(in: environment), People.shared(in: environment))
            let outbox = MailOutbox.shared(in: environment)
            environment.runOnce(outbox) // newsletter confirmations leave from it, after the signup's answer
            let newsletter = Newsletter(log: environment.log, runner: environment.projections.runner(NewsletterProjection.self),
                                        people: people, config: config, outbox: outbox,
                                        publicURL: environment.configuration[NotificationSettings.self].publicURL)
            let civics = environment.projections.runner(CivicsProjection.self)
            parts.appends([ProgressSynced.self, InstallLinked.self, InstallUnlinked.self, NewsletterSubscribed.self, NewsletterUnsubscribed.self,
                           NewsletterConfirmed.self, CivicEventPublished.self, BillTracked.self, FollowChanged.self])
            let calendar = CivicCalendar(log: environment.log, runner: environment.projections.runner(CalendarProjection.self), config: config)
            let devices = Devices.shared(in: environment)
            let templates = PageTemplates.shared(in: environment)
            parts.routes.append { routes in
                PoPRoutes.add(to: routes, sync: sync)
                CalendarRoutes.addWrites(to: routes, calendar: calendar, people: people, devices: devices)
                NewsletterRoutes.add(to: routes, newsletter: newsletter, people: people)
                // Organisers sign in here (a sign-in is a session event, and the query role never appends).
                CivicsPageRoutes.add(to: routes, runner: civics, config: config, keys: keys, people: people, templates: templates)
            }
            let accounts = Self.accounts(environment.configuration[PoPSettings.self], sync: sync)
            AccountRoutes.add(accounts, to: &parts, environment: environment)
            NotificationsApp.add(Self.notifications(environment), to: &parts, role: role, peopleRole: .ingest, person: accounts.person,
                                 environment: environment)
        case .query:
            let config = Self.config(environment)
            let civics = environment.projections.runner(CivicsProjection.self)
            let calendar = environment.projections.runner(CalendarProjection.self)
            parts.routes.append {
                CivicsRoutes.add(to: $0, runner: civics, config: config)
                CalendarRoutes.addReads(to: $0, runner: calendar, config: config)
            }
        case .notifier:
            NotificationsApp.add(Self.notifications(environment), to: &parts, role: role, peopleRole: .ingest,
                                 person: .person(anyRoleOf: PoPRole.self), environment: environment)
        case .geocode, .moderation, .collector:
            break
        }
    }

    /// What PoP tells the followers of its calendar (`PoPNotifications`).
    static func notifications(_ environment: MusterEnvironment) -> AppNotifications {
        PoPNotifications.declaration(runner: environment.projections.runner(CalendarProjection.self))
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
