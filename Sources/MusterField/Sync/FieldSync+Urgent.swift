import Crypto
import Foundation
import MusterEvents
import MusterLog
import MusterPush
import MusterJSON

/// Urgent updates as pushes, through the notifier, to the people who have no live socket open:
/// a project's moved site, and a manager's new message.
extension FieldSync {
    /// The fields of a project that say where its site is.
    static let siteFields: Set<String> = ["address", "latitude", "longitude", "radiusMeters"]

    /// What one urgent update says, to whom (a project's workers), and what it opens.
    struct Urgent {
        var key: String
        var projectId: String
        var title: String
        var body: String
        var screen: String
        var id: String
        var collapseId: String
    }

    /// After a manager's push stored at `sequence`: for each project whose site it moved and each
    /// message it created, a push to the project's workers who are not connected. A push that cannot
    /// be recorded does not fail the sync: the change itself is stored, and shows on the next pull.
    /// `outcomes` are the kept mutations' own, in their order.
    func announceUrgent(_ kept: [FieldMutation], outcomes: [FieldBook.Outcome?], by manager: FieldPerson, sequence: UInt64) async {
        let stored = zip(kept, outcomes).filter { mutation, outcome in
            switch outcome {
            case .applied?, .merged?: !mutation.isDelete
            default: false
            }
        }.map(\.0)
        let moved = Set(stored.filter { $0.entity == .project && !Self.siteFields.isDisjoint(with: $0.fields.keys) }.map(\.id)).sorted()
        let messages = stored.filter { $0.entity == .message && $0.baseVersion == 0 }
        let names = await runner.read { book in
            Set(moved + messages.compactMap { $0.fields["projectId"]?.string }).reduce(into: [String: String]()) {
                $0[$1] = book.record($1)?.values["name"]?.string ?? "Your project"
            }
        }
        var urgent = moved.map { projectId in
            Urgent(key: "field-site:\(sequence):\(projectId)", projectId: projectId, title: "Site changed",
                   body: "\(names[projectId, default: ""].prefix(120)): the job site changed. Check it before you set out.",
                   screen: "project", id: projectId, collapseId: "site-\(projectId)")
        }
        for message in messages {
            guard let projectId = message.fields["projectId"]?.string, let body = message.fields["body"]?.string else { continue }
            urgent.append(Urgent(key: "field-message:\(message.id)", projectId: projectId, title: "Message: " + names[projectId, default: ""].prefix(120),
                                 body: String(body.prefix(240)), screen: "message", id: message.id, collapseId: "message-\(message.id)"))
        }
        for update in urgent { await push(update, by: manager) }
    }

    /// Asks the notifier to push `update` to the project's workers without a live socket here.
    private func push(_ update: Urgent, by manager: FieldPerson) async {
        let members = await runner.read { book in book.companies[manager.orgId]?.members[update.projectId] ?? [] }
        let absent = members.filter { !presence.isConnected($0) }.sorted()
        guard !absent.isEmpty else { return }
        let push = PushRequested(pushId: "psh_" + Hex.lowercase(SHA256.hash(data: Data(update.key.utf8)).prefix(16)),
                                 app: "field", audience: PushAudience(personIds: absent),
                                 message: PushMessage(title: update.title, body: update.body, screen: update.screen, id: update.id),
                                 collapseId: update.collapseId, requestedBy: "person:\(manager.personId)")
        _ = try? await log.append(push, options: AppendOptions(idempotencyKey: update.key, actor: "system:field"))
    }
}
