package import Foundation
package import Logging
import MusterEvents
package import MusterLog
import MusterRuntime

/// An app's rules at work (the notifier role): a durable consumer of the app's events, shared by
/// every notifier replica, so each event is turned into messages by one of them; at least once,
/// which the notifier's appends make harmless (each names its event).
package enum NotificationRules {
    /// How old an event may be and still be news. A notifier that starts on a long log (a new
    /// deployment, a new app's rules) reads all of it: what happened last month is not told now,
    /// but the reminders it set up still come (a walk confirmed yesterday for next week).
    package static let news: TimeInterval = 3600

    package static func processor(_ declaration: AppNotifications, notifier: Notifier, log: EventLog, logger: Logger) -> EventProcessor {
        var processor = EventProcessor(name: "notify-\(declaration.app)", filterSubjects: declaration.subjects, log: log, logger: logger) { event in
            // Reminders and cancellations in the order the rule gave them (a moved walk's old
            // reminder is cancelled before its new one is set); the messages to send now side by
            // side with them, each its own decisions.
            let actions = current(try await declaration.rules(event), happenedAt: event.time)
            let scheduled = try await withThrowingTaskGroup(of: UInt64.self) { group in
                for (index, action) in actions {
                    guard case .send = action else { continue }
                    group.addTask { try await notifier.handle(action, trigger: event, index: index) ?? 0 }
                }
                var last: UInt64 = 0
                for (index, action) in actions {
                    if case .send = action { continue }
                    last = max(last, try await notifier.handle(action, trigger: event, index: index) ?? 0)
                }
                for try await sequence in group { last = max(last, sequence) }
                return last
            }
            // What the next event about the thing reads (a reminder to cancel, a message gathering)
            // is in the fold before it is handled: one wait an event, not one per reminder.
            if scheduled > 0 { _ = await notifier.notifications.waitUntilApplied(scheduled, timeout: .seconds(5)) }
        }
        // Each event waits on a few appends; many things' events at once keep the log busy.
        processor.lanes = lanes
        processor.batch = lanes * 4
        return processor
    }

    /// How many things' events are decided side by side.
    package static let lanes = 256

    /// The actions still worth carrying out, with their places in the rule's answer (the index
    /// keeps each action's idempotency key whatever is left out): all of them for news; for an
    /// event older than `news`, reminders and cancellations only. Pure.
    package static func current(_ actions: [NotificationAction], happenedAt time: String, now: Date = Date()) -> [(Int, NotificationAction)] {
        let old = Timestamp.millis(time).map { Double(Timestamp.millis(now) - $0) > news * 1000 } ?? false
        return actions.enumerated().filter { _, action in
            if case .send = action { return !old }
            return true
        }.map { ($0.offset, $0.element) }
    }
}
