import Foundation

/// The moderation queue: actions and snapshots, filtered, newest first.
package struct ModerationQueue: Codable, Sendable, Equatable {
    package struct Item: Codable, Sendable, Equatable {
        package var kind: String
        package var id: String
        package var status: String
        package var employerName: String
        package var summary: String
        package var submittedAt: String
        package var submittedBy: String
        package var checked: Bool
        package var flags: [ModerationFlag]
        /// The action a snapshot belongs to.
        package var actionId: String?
    }

    package struct Filter: Sendable, Equatable {
        /// `pending` (submitted, the default), a status, or `all`.
        package var status = "pending"
        /// `action`, `snapshot`, or nil for both.
        package var kind: String?
        /// Only items carrying this flag code.
        package var flag: String?
        /// Case-insensitive text in the employer name or summary.
        package var text: String?
        package var limit = 200
        package init() {}
    }

    package var count: Int
    package var items: [Item]

    package init(state: OPLProjection.State, filter: Filter) {
        var items: [Item] = []
        func matches(_ status: String, _ flags: [ModerationFlag], _ text: String) -> Bool {
            (filter.status == "all" || status == (filter.status == "pending" ? "submitted" : filter.status))
                && (filter.flag.map { code in flags.contains { $0.code == code } } ?? true)
                && (filter.text.map { text.localizedLowercase.contains($0.localizedLowercase) } ?? true)
        }
        if filter.kind == nil || filter.kind == "action" {
            for a in state.actions.values {
                let summary = "\(a.details.actionType) by \(a.details.organization) at \(a.details.location)"
                guard matches(a.status.rawValue, a.flags, a.employer.name + " " + summary) else { continue }
                items.append(Item(kind: "action", id: a.id, status: a.status.rawValue, employerName: a.employer.name, summary: summary,
                                  submittedAt: a.submittedAt, submittedBy: a.submittedBy, checked: a.checked, flags: a.flags))
            }
        }
        if filter.kind == nil || filter.kind == "snapshot" {
            for s in state.snapshots.values {
                let employer = state.actions[s.actionId]?.employer.name ?? "?"
                let summary = "GPS snapshot \(s.latitude), \(s.longitude)" + (s.address.map { " (\($0))" } ?? "")
                guard matches(s.status.rawValue, s.flags, employer + " " + summary + " " + (s.notes ?? "")) else { continue }
                items.append(Item(kind: "snapshot", id: s.id, status: s.status.rawValue, employerName: employer, summary: summary,
                                  submittedAt: s.submittedAt, submittedBy: s.submittedBy, checked: s.checked, flags: s.flags,
                                  actionId: s.actionId))
            }
        }
        items.sort { ($0.submittedAt, $0.id) > ($1.submittedAt, $1.id) }
        count = items.count
        self.items = Array(items.prefix(filter.limit))
    }
}
