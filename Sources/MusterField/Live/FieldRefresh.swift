package import Foundation
package import Logging
package import MusterEvents
package import MusterLog
import MusterPlatform
import MusterPush

/// A silent push to a crew's devices when their records change while they are off the live socket
/// (the notifier role): the app syncs in the background and opens on today's data. One per device
/// in 20 minutes at most (the notifier's spacing for silent pushes): the next pull brings the rest.
/// Who is connected is `FieldPresence`, as every instance shares it.
package struct FieldRefresh: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<FieldProjection>
    let presence: FieldPresence
    let logger: Logger
    /// Changes older than this are history, not news: a notifier added to a long log stays quiet.
    package var maxAge: TimeInterval = 600

    package init(log: EventLog, runner: ProjectionRunner<FieldProjection>, presence: FieldPresence, logger: Logger) {
        self.log = log
        self.runner = runner
        self.presence = presence
        self.logger = logger
    }

    package func handle(_ event: RecordedEvent) async throws {
        guard let pushed = event.payload as? MutationsPushed else { return }
        if let time = Timestamp.millis(event.time), Double(Timestamp.millis(Date()) - time) > maxAge * 1000 { return }
        _ = await runner.waitUntilApplied(event.sequence, timeout: .seconds(10))
        let crew: Set<String> = await runner.read { book in
            let projects = Set(pushed.mutations.compactMap { mutation -> String? in
                if mutation.entity == .project { return mutation.id }
                return mutation.fields["projectId"]?.string ?? book.record(mutation.id)?.projectId
            })
            return projects.reduce(into: Set<String>()) { $0.formUnion(book.companies[pushed.orgId]?.members[$1] ?? []) }
        }
        let absent = crew.subtracting([pushed.personId]).filter { !presence.isConnected($0) }.sorted()
        guard !absent.isEmpty else { return }
        let push = PushRequested(pushId: HexIDs.derived("psh_", from: "field-refresh", event.id), app: "field",
                                 audience: PushAudience(personIds: Array(absent.prefix(10_000))),
                                 message: PushMessage(title: "Crew records changed", body: "Sync in the background", screen: "sync"),
                                 collapseId: "field-sync", priority: "normal", requestedBy: "system:field", background: true)
        do {
            try await log.append(push, options: AppendOptions(expected: .noEvents, actor: "system:field"))
        } catch let error as AppendError where error.code == .conflict {
            return // this change's refresh is already asked for
        }
    }
}
