import Foundation
import Hummingbird
import Logging
import MusterEvents
import MusterLog
import MusterOPL
import MusterPlatform
import MusterRuntime
import ServiceLifecycle

/// moderation: every submitted strike and snapshot is checked automatically (flags), then waits
/// for a moderator (JSON API and an HTML page). Also ends actions whose duration ran out.
public struct ModerationService: MusterServiceModule {
    public let name = "moderation"
    public let summary = "automatic checks, the moderators' queue and decisions"
    let shared: SharedParts
    var platform: PlatformKit { shared.platform }
    var opl: OPLKit { shared.opl }

    public init(_ shared: SharedParts) { self.shared = shared }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        let runner = opl.runner
        let log = environment.log
        let checks = EventProcessor(name: "opl-checks", filterSubjects: ["events.opl.action.*.submitted.v1", "events.opl.snapshot.*.submitted.v1"],
                                    log: log, logger: environment.logger) { event in
            let state = await runner.current().state
            let options = AppendOptions(idempotencyKey: "checked:\(event.aggregateID)", actor: "service:moderation")
            switch event.payload {
            case let submitted as ActionSubmitted:
                _ = try await log.append(ActionChecked(actionId: submitted.actionId, flags: ModerationChecks.flags(for: submitted, in: state)),
                                         options: options)
            case let submitted as SnapshotSubmitted:
                _ = try await log.append(SnapshotChecked(snapshotId: submitted.snapshotId, flags: ModerationChecks.flags(for: submitted, in: state)),
                                         options: options)
            default:
                return
            }
        }
        return shared.runners + [checks, ExpirySweeper(runner: runner, log: log, logger: environment.logger)]
    }

    public func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        let desk = ModerationDesk(runner: opl.runner, log: environment.log)
        ModerationRoutes.add(to: routes, keys: platform.directory, desk: desk)
        ModerationPageRoutes.add(to: routes, keys: platform.directory, desk: desk)
    }
}

/// Ends approved actions whose duration ran out, as `opl.action.ended.v1` events by
/// `system:expiry`. The views already hide them at that moment; the event makes it a fact in the
/// log. One sweep a minute; an action extended meanwhile wins (expected-version conflict).
struct ExpirySweeper: Service {
    let runner: ProjectionRunner<OPLProjection>
    let log: EventLog
    let logger: Logger
    var interval: Duration = .seconds(60)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await sweep()
                try? await Task.sleep(for: interval)
            }
        }
    }

    func sweep(now: Date = Date()) async {
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
