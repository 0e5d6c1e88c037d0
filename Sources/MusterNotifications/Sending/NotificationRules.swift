package import Logging
package import MusterLog
import MusterRuntime

/// An app's rules at work (the notifier role): a durable consumer of the app's events, shared by
/// every notifier replica, so each event is turned into messages by one of them; at least once,
/// which the notifier's appends make harmless (each names its event).
package enum NotificationRules {
    package static func processor(_ declaration: AppNotifications, notifier: Notifier, log: EventLog, logger: Logger) -> EventProcessor {
        EventProcessor(name: "notify-\(declaration.app)", filterSubjects: declaration.subjects, log: log, logger: logger) { event in
            let actions = try await declaration.rules(event)
            for (index, action) in actions.enumerated() {
                try await notifier.handle(action, trigger: event, index: index)
            }
        }
    }
}
