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

    /// Decides every message due now.
    func sendDue(now: Date = Date()) async throws {
        // A fold still replaying knows of messages that were decided long ago: wait until it caught up.
        guard await notifier.notifications.caughtUp else { return }
        let due = await notifier.notifications.read { $0.due(by: Timestamp.millis(now)) }
        for pending in due where !Task.isCancelled {
            let lateness = Timestamp.millis(now) - pending.dueAt
            if lateness > 5_000 {
                logger.notice("a notification is late", metadata: ["key": "\(pending.key)", "late_ms": "\(lateness)"])
            }
            try await notifier.decide(pending.notice, key: pending.key, version: pending.version, channels: pending.undecided,
                                      triggeredAt: Timestamp.string(millis: pending.dueAt), now: now)
        }
    }
}
