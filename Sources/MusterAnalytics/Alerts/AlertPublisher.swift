package import Logging
import MusterEvents
package import MusterLog
import ServiceLifecycle

/// Records what the alert rules decided: watches the analytics fold and appends
/// `analytics.alert.raised.v1` / `.resolved.v1` for each transition the log does not hold yet.
///
/// Safe to run in several processes, and after a replay: an alert's id comes from the rule's own
/// history (see `AlertRules.alertID`), a raise is appended only to an alert with no events, and
/// each append carries a message id, so the same decision is recorded once.
package struct AlertPublisher: Service {
    let runner: ProjectionRunner<AnalyticsProjection>
    let log: EventLog
    let logger: Logger
    var interval: Duration = .milliseconds(500)

    package init(runner: ProjectionRunner<AnalyticsProjection>, log: EventLog, logger: Logger) {
        self.runner = runner
        self.log = log
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            var published: UInt64 = 0
            while !Task.isCancelled {
                let checkpoint = runner.currentCheckpoint
                if checkpoint != published {
                    let pending = await runner.read { $0.unrecordedTransitions }
                    do {
                        for transition in pending { try await publish(transition) }
                        published = checkpoint
                    } catch {
                        logger.warning("could not record an alert; retrying", metadata: ["error": "\(error)"])
                    }
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    func publish(_ t: AlertTransition) async throws {
        let windowEnd = Timestamp.string(millis: (t.minute + 1) * 60_000, fraction: false)
        do {
            switch t.kind {
            case .raised:
                let event = AlertRaised(alertId: t.alertId, rule: t.rule, app: t.app, target: String(t.target.prefix(220)),
                                        windowStart: Timestamp.string(millis: (t.minute + 1 - t.windowMinutes) * 60_000, fraction: false),
                                        windowEnd: windowEnd, observed: t.observed, threshold: t.threshold, count: t.count,
                                        message: String(t.message.prefix(500)))
                try await log.append(event, options: AppendOptions(idempotencyKey: "raised:\(t.alertId)", expected: .noEvents,
                                                                   actor: "system:alerts"))
            case .resolved:
                let event = AlertResolved(alertId: t.alertId, rule: t.rule, app: t.app, target: String(t.target.prefix(220)),
                                          resolvedAt: windowEnd, observed: t.observed, count: t.count, message: String(t.message.prefix(500)))
                try await log.append(event, options: AppendOptions(idempotencyKey: "resolved:\(t.alertId)", actor: "system:alerts"))
            }
            logger.notice("alert \(t.kind.rawValue)", metadata: ["alert": "\(t.alertId)", "rule": "\(t.rule.rawValue)", "app": "\(t.app)",
                                                                 "target": "\(t.target)", "message": "\(t.message)"])
        } catch let error as AppendError where error.code == .conflict {
            return // another process recorded it first
        }
    }
}
