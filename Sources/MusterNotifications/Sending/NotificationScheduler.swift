import Foundation
package import Logging
import MusterEvents
import MusterLog
import ServiceLifecycle

/// Sends what is due (the notifier role, every replica): reminders at their time, gathered
/// messages once their thing settled, deferred ones when quiet hours end. Each replica looks
/// every `tick`; decisions are claimed one by one in the log (`Notifier`), so two replicas send a
/// message once, and one killed at the due moment leaves it to the other or to its restart.
package struct NotificationScheduler: Service {
    let notifier: Notifier
    let logger: Logger
    package var tick: Duration = .milliseconds(250)
    /// How many recipients' due messages are decided side by side.
    package var lanes = 256

    package init(notifier: Notifier, logger: Logger) {
        self.notifier = notifier
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await sendDue()
                } catch {
                    logger.warning("sending due notifications failed; trying again", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: tick)
            }
        }
    }

    /// Decides every message due now: one recipient's in the order they fell due (a phone never
    /// hears of a thing out of order), `lanes` recipients side by side. One at a time, a burst of
    /// reminders due together waited on each decision's appends in turn (500 a second).
    func sendDue(now: Date = Date()) async throws {
        // A fold still replaying knows of messages that were decided long ago: wait until it caught up.
        guard await notifier.notifications.caughtUp else { return }
        let due = await notifier.notifications.read { $0.due(by: Timestamp.millis(now)) }
        var order: [String] = [], byRecipient: [String: [NotificationsProjection.Pending]] = [:]
        for pending in due {
            if byRecipient[pending.notice.recipient] == nil { order.append(pending.notice.recipient) }
            byRecipient[pending.notice.recipient, default: []].append(pending)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for recipient in order where !Task.isCancelled {
                if running == lanes {
                    try await group.next()
                    running -= 1
                }
                let lane = byRecipient[recipient] ?? []
                group.addTask {
                    for pending in lane where !Task.isCancelled { try await decide(pending, now: now) }
                }
                running += 1
            }
            try await group.waitForAll()
        }
    }

    func decide(_ pending: NotificationsProjection.Pending, now: Date) async throws {
        let lateness = Timestamp.millis(now) - pending.dueAt
        if lateness > 5_000 {
            logger.notice("a notification is late", metadata: ["key": "\(pending.key)", "late_ms": "\(lateness)"])
        }
        try await notifier.decide(pending.notice, key: pending.key, version: pending.version, channels: pending.undecided,
                                  triggeredAt: Timestamp.string(millis: pending.dueAt), now: now)
    }
}
