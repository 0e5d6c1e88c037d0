package import Foundation
package import MusterEvents
package import MusterRuntime
import Synchronization

/// How a message reaches a person.
package enum NotificationChannel: String, Codable, Sendable, CaseIterable, Comparable {
    case push, email, sms

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A kind of message an app sends (`walk-confirmed`), with the channels it may use and those a
/// person gets until they say otherwise.
package struct NotificationCategory: Sendable {
    package var name: String
    /// What the person reads in their preferences ("A walker confirmed your walk").
    package var summary: String
    package var channels: [NotificationChannel]
    package var defaults: Set<NotificationChannel>
    /// Sent during quiet hours too (a walk cancelled within the hour). A notice may say so itself.
    package var urgent: Bool
    /// Wait this long for the thing to settle before sending, each new notice about it restarting
    /// the wait (at most four times over): a booking moved three times in a minute is one message
    /// with its last state. Nil: sent at once.
    package var gathering: Duration?

    package init(_ name: String, _ summary: String, channels: [NotificationChannel], defaults: Set<NotificationChannel>,
                 urgent: Bool = false, gathering: Duration? = nil) {
        self.name = name
        self.summary = summary
        self.channels = channels
        self.defaults = defaults.intersection(channels)
        self.urgent = urgent
        self.gathering = gathering
    }
}

/// What an app's rule asks for when one of its events happens.
package enum NotificationAction: Sendable, Equatable {
    /// Tell the person now (or once the category's gathering wait is over).
    case send(Notice)
    /// Tell the person at `at`; a later `remind` with the same key moves it, `cancel` drops it.
    case remind(Notice, at: Date, key: String)
    case cancel(key: String)
}

/// An app's declaration of what it tells people: its categories and the rules that turn its
/// events into notices. The rules run once per event (on one notifier), may read the app's folds
/// (wait for the event's sequence first) and must not have side effects of their own.
package struct AppNotifications: Sendable {
    package var app: String
    package var categories: [NotificationCategory]
    /// The log subjects the rules read (`events.offleash.schedule.>`).
    package var subjects: [String]
    package var rules: @Sendable (RecordedEvent) async throws -> [NotificationAction]

    package init(app: String, categories: [NotificationCategory], subjects: [String],
                 rules: @escaping @Sendable (RecordedEvent) async throws -> [NotificationAction]) {
        self.app = app
        self.categories = categories
        self.subjects = subjects
        self.rules = rules
    }

    package func category(_ name: String) -> NotificationCategory? { categories.first { $0.name == name } }
}

/// The declarations of the apps this process composes, for what works across apps (the
/// scheduler sending a reminder checks the person's preferences against its app's defaults).
package final class NotificationDirectory: Sendable {
    private let declarations = Mutex<[String: AppNotifications]>([:])

    init() {}

    package static func shared(in environment: MusterEnvironment) -> NotificationDirectory {
        environment.shared { NotificationDirectory() }
    }

    package func declare(_ notifications: AppNotifications) {
        declarations.withLock { $0[notifications.app] = notifications }
    }

    package func category(app: String, _ name: String) -> NotificationCategory? {
        declarations.withLock { $0[app]?.category(name) }
    }
}
