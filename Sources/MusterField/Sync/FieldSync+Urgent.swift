import Crypto
import Foundation
import MusterEvents
import MusterLog
import MusterPush

/// Urgent updates as pushes, through the notifier, to the people who have no live socket open.
extension FieldSync {
    /// The fields of a project that say where its site is.
    static let siteFields: Set<String> = ["address", "latitude", "longitude", "radiusMeters"]

    /// After a manager's push stored at `sequence`: for each project whose site it moved, a push to
    /// the project's workers who are not connected ("Site changed", opening the project). A push
    /// that cannot be recorded does not fail the sync: the change itself is stored.
    func announceSiteChanges(_ kept: [FieldMutation], outcomes: [String: FieldBook.Outcome], by manager: FieldPerson, sequence: UInt64) async {
        let moved = kept.filter { mutation in
            guard mutation.entity == .project, !mutation.isDelete, !Self.siteFields.isDisjoint(with: mutation.fields.keys) else { return false }
            switch outcomes[mutation.mutationId] {
            case .applied?, .merged?: return true
            default: return false
            }
        }
        for projectId in Set(moved.map(\.id)).sorted() {
            let (name, members) = await runner.read { book in
                (book.records[projectId]?.values["name"]?.string ?? "your project", book.companies[manager.orgId]?.members[projectId] ?? [])
            }
            let absent = members.filter { !presence.isConnected($0) }.sorted()
            guard !absent.isEmpty else { continue }
            let key = "field-site:\(sequence):\(projectId)"
            let push = PushRequested(pushId: "psh_" + SHA256.hash(data: Data(key.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined(),
                                     app: "field", audience: PushAudience(personIds: absent),
                                     message: PushMessage(title: "Site changed", body: "\(name.prefix(120)): the job site changed. Check it before you set out.",
                                                          screen: "project", id: projectId),
                                     collapseId: "site-\(projectId)", requestedBy: "person:\(manager.personId)")
            _ = try? await log.append(push, options: AppendOptions(idempotencyKey: key, actor: "system:field"))
        }
    }
}
