package import Foundation
package import Logging
package import MusterLog
import ServiceLifecycle

/// Ends approved actions whose duration ran out, as `opl.action.ended.v1` events by
/// `system:expiry`. The views already hide them at that moment; the event makes it a fact in the
/// log. One sweep a minute; an action extended meanwhile wins (expected-version conflict).
package struct ExpirySweeper: Service {
    let runner: ProjectionRunner<OPLProjection>
    let log: EventLog
    let logger: Logger
    var interval: Duration = .seconds(60)

    package init(runner: ProjectionRunner<OPLProjection>, log: EventLog, logger: Logger) {
        self.runner = runner
        self.log = log
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await sweep()
                try? await Task.sleep(for: interval)
            }
        }
    }

    package func sweep(now: Date = Date()) async {
        guard await runner.caughtUp else { return }
        let due = await runner.read { state in
            state.actions.values.filter { $0.status == .approved && ($0.endDate.map { $0 <= now } ?? false) }
        }
        for action in due {
            let event = ActionEnded(actionId: action.id, moderator: "system:expiry",
                                    reason: "its \(action.details.durationDays) days ran out")
            do {
                _ = try await log.append(event, options: AppendOptions(idempotencyKey: "expired:\(action.id):\(action.sequence)",
                                                                       expected: .at(action.sequence), actor: "service:moderation"))
            } catch {
                logger.info("expiry skipped", metadata: ["action": "\(action.id)", "error": "\(error)"])
            }
        }
    }
}
