import Metrics
package import MusterEvents
package import MusterLog
import MusterPlatform
import MusterPush
package import MusterRuntime

/// Notifications for every app: the decisions (`platform.notification.*`), people's preferences,
/// and the scheduler that sends what is due (notifier role). An app takes part by declaring its
/// categories and rules (`AppNotifications`) and calling `NotificationsApp.add` from its own roles.
package struct NotificationsApp: MusterApp {
    package let name = "notifications"
    package var kind: AppKind { .sharedService }
    package var events: EventCatalog { .notifications }
    package var projections: [any Projection.Type] { [NotificationsProjection.self] }
    package var scopes: [String] { [] }
    package var settings: [any AppSettings.Type] { [NotificationSettings.self] }

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        guard role == .notifier else { return }
        parts.appends([NotificationScheduled.self, NotificationCancelled.self, NotificationSent.self, NotificationSuppressed.self,
                       NotificationDeferred.self])
        parts.services.append(NotificationScheduler(notifier: Self.notifier(environment), logger: environment.logger))
    }

    /// The process's notifier (one per process, whichever app asks first).
    package static func notifier(_ environment: MusterEnvironment) -> Notifier {
        environment.shared {
            let invites = environment.configuration[InvitationSettings.self]
            let signIn = environment.configuration[SignInSettings.self]
            return Notifier(log: environment.log, notifications: environment.projections.runner(NotificationsProjection.self),
                            devices: environment.projections.runner(DevicesProjection.self), people: People.shared(in: environment),
                            directory: NotificationDirectory.shared(in: environment),
                            mail: invites.mailURL.map { MailClient(baseURL: $0, key: invites.mailKey, from: invites.mailFrom) },
                            sms: signIn.smsURL.map { SMSClient(baseURL: $0, account: signIn.smsAccount, token: signIn.smsToken, from: signIn.smsFrom) },
                            publicURL: environment.configuration[NotificationSettings.self].publicURL, logger: environment.logger)
        }
    }

    /// What an app that notifies adds to its roles: its rules on the notifier role; its people's
    /// preferences on `peopleRole` (where its people's routes are), behind `person`.
    package static func add(_ declaration: AppNotifications, to parts: inout RoleParts, role: ServiceRole, peopleRole: ServiceRole,
                           person: AccessRule, environment: MusterEnvironment) {
        NotificationDirectory.shared(in: environment).declare(declaration)
        if role == .notifier {
            // The families alerts and dashboards read, at 0 from the start (a rate misses a series' first event).
            for category in declaration.categories {
                for channel in category.channels {
                    Counter(label: "muster_notifications_total", dimensions: [("app", declaration.app), ("category", category.name),
                                                                              ("channel", channel.rawValue), ("outcome", "sent")]).increment(by: 0)
                    if channel != .push {
                        Counter(label: "muster_notification_failures_total", dimensions: [("app", declaration.app), ("channel", channel.rawValue)])
                            .increment(by: 0)
                    }
                }
            }
            parts.services.append(NotificationRules.processor(declaration, notifier: notifier(environment), log: environment.log,
                                                              logger: environment.logger))
        }
        if role == peopleRole {
            parts.appends([PreferencesSet.self])
            let preferences = Preferences(log: environment.log, runner: environment.projections.runner(NotificationsProjection.self),
                                          people: People.shared(in: environment))
            parts.routes.append { NotificationRoutes.add(to: $0, declaration: declaration, person: person, preferences: preferences) }
        }
    }
}
