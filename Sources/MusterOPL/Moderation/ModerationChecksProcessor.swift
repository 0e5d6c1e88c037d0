import Logging
import MusterEvents
import MusterLog

/// Checks every submitted strike and snapshot as it arrives (`opl.action.checked.v1`,
/// `opl.snapshot.checked.v1`), against the fold as it stood just before the submission: it waits
/// until the fold has applied the event before, so a duplicate submitted a moment earlier is seen.
enum ModerationChecksProcessor {
    /// How long a check waits for the fold before the processor retries the event later.
    static let foldWait = Duration.seconds(30)

    static func make(opl runner: ProjectionRunner<OPLProjection>, log: EventLog, logger: Logger) -> EventProcessor {
        EventProcessor(name: "opl-checks", filterSubjects: [ActionSubmitted.eventType.familyFilter, SnapshotSubmitted.eventType.familyFilter],
                       log: log, logger: logger) { event in
            guard await runner.waitUntilApplied(event.sequence - 1, timeout: foldWait) else {
                throw FoldBehind(projection: "opl", sequence: event.sequence - 1)
            }
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
    }

    /// The fold has not reached the event a check must see; the processor retries it later.
    struct FoldBehind: Error, CustomStringConvertible {
        let projection: String
        let sequence: UInt64
        var description: String { "the \(projection) fold has not applied sequence \(sequence) yet" }
    }
}
