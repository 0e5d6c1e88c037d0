import MusterRuntime

/// The moderation pages' views: the queue, one action, one snapshot, laid out by
/// `moderation/*.mustache`. What people typed is shown through `visibleText` and escaped by the
/// template; the forms each view offers follow the item's state.
enum ModerationPage {
    struct Flag: Sendable {
        let code: String
        let detail: String
    }

    /// An item's flags as the pages show them: pending checks, no flags, or each flag.
    struct Flags: Sendable {
        let pending: Bool
        let none: Bool
        let flags: [Flag]

        init(_ flags: [ModerationFlag], checked: Bool) {
            pending = !checked
            none = checked && flags.isEmpty
            self.flags = checked ? flags.map { Flag(code: $0.code, detail: visibleText($0.detail)) } : []
        }
    }

    struct Option: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    struct QueueView: Sendable {
        struct Item: Sendable {
            let kind: String
            let href: String
            let employer: String
            let summary: String
            let flags: Flags
            let submittedAt: String
            let status: String
        }

        let statuses: [Option]
        let kinds: [Option]
        let flagCodes: [Option]
        let text: String
        let count: Int
        let items: [Item]
    }

    static func queue(_ queue: ModerationQueue, filter: ModerationQueue.Filter) -> QueueView {
        func options(_ values: [String], _ chosen: String?, any: String? = nil) -> [Option] {
            (any.map { [Option(value: "", label: $0, selected: chosen == nil)] } ?? []) + values.map { Option(value: $0, label: $0, selected: $0 == chosen) }
        }
        return QueueView(
            statuses: options(["pending", "approved", "rejected", "merged", "ended", "all"], filter.status),
            kinds: options(["action", "snapshot"], filter.kind, any: "both"),
            flagCodes: options(ModerationFlag.codes.sorted(), filter.flag, any: "any"),
            text: visibleText(filter.text ?? ""), count: queue.count,
            items: queue.items.map {
                .init(kind: $0.kind, href: "/moderation/\($0.kind)s/\($0.id)", employer: visibleText($0.employerName), summary: visibleText($0.summary),
                      flags: Flags($0.flags, checked: $0.checked), submittedAt: $0.submittedAt, status: $0.status)
            })
    }

    struct Detail: Sendable {
        let name: String
        let value: String
    }

    struct Decision: Sendable {
        let line: String
    }

    /// What each client will block, an entry at a time (`ModerationPage+Preview`).
    struct PreviewRow: Sendable {
        let entry: String
        /// All of a host and its subdomains, everywhere.
        let reachHost: String?
        /// Only a page (the phone apps and DNS filter block nothing), with the extension's entries.
        let reachPage: String?
        let extensionEntries: String?
        /// Refused at approval, and why.
        let reachRefused: String?
    }

    struct Preview: Sendable {
        let ownDomains: String
        let rows: [PreviewRow]
        let empty: Bool
    }

    struct ActionView: Sendable {
        let id: String
        let base: String
        let employer: String
        let status: String
        let flags: Flags
        let details: [Detail]
        let preview: Preview
        let decisions: [Decision]
        let hasDecisions: Bool
        let draftURLs: String
        let draftOwnDomains: String
        /// Which forms the action's state offers.
        let canApprove: Bool
        let canReject: Bool
        let canReopen: Bool
        let canMerge: Bool
        let canEnd: Bool
        let canExtend: Bool
        let mergeInto: String
        let extendDays: Int
    }

    /// One action. `draft` is what a preview was asked for; nil shows the action's own entries.
    static func action(_ a: OPLProjection.Action, rules: BlocklistRules, draft typed: BlocklistDraft? = nil) -> ActionView {
        let d = a.details
        let fields: [(String, String?)] = [
            ("Industry", a.employer.industry), ("Website", a.employer.website), ("Organization", d.organization), ("Type", d.actionType),
            ("Location", d.location),
            ("Coordinates", a.coordinates.map { "\($0.latitude), \($0.longitude)" + (d.coordinates == nil ? " (geocoded)" : "") }),
            ("Start", d.startDate), ("Duration", "\(d.durationDays) days"), ("Description", d.description), ("Demands", d.demands),
            ("Contact", d.contactInfo), ("Learn more", d.learnMoreUrl),
            ("Blocklist entries", a.urls.isEmpty ? nil : a.urls.joined(separator: "\n")),
            ("Sites", a.locations.isEmpty ? nil : a.locations.map { "\($0.type) \($0.name ?? "") \($0.latitude), \($0.longitude) r=\($0.notificationRadius) m" }.joined(separator: "\n")),
            ("Submitted", "\(a.submittedAt) by \(a.submittedBy) via \(a.channel)"), ("Merged into", a.mergedInto),
        ]
        let draft = typed ?? BlocklistDraft.current(a, rules: rules)
        return ActionView(
            id: a.id, base: "/moderation/actions/\(a.id)", employer: visibleText(a.employer.name), status: a.status.rawValue,
            flags: Flags(a.flags, checked: a.checked),
            details: fields.compactMap { name, value in value.map { Detail(name: name, value: visibleText($0)) } },
            preview: preview(draft, rules: rules), decisions: decisions(a.decisions), hasDecisions: !a.decisions.isEmpty,
            draftURLs: visibleText(draft.urls.joined(separator: "\n")), draftOwnDomains: visibleText(draft.ownDomains.joined(separator: "\n")),
            canApprove: [.submitted, .approved].contains(a.status), canReject: a.status == .submitted, canReopen: a.status == .rejected,
            canMerge: [.submitted, .approved].contains(a.status), canEnd: a.status == .approved, canExtend: [.approved, .ended].contains(a.status),
            mergeInto: a.flags.first { $0.code == "duplicate" }?.relatedId ?? "", extendDays: d.durationDays + 7)
    }

    static func decisions(_ decisions: [OPLProjection.Decision]) -> [Decision] {
        decisions.map { Decision(line: visibleText("\($0.at) \($0.kind) by \($0.moderator): \($0.reason)")) }
    }

    struct SnapshotView: Sendable {
        let id: String
        let base: String
        let status: String
        let flags: Flags
        let details: [Detail]
        let decisions: [Decision]
        let hasDecisions: Bool
        let canDecide: Bool
    }

    static func snapshot(_ s: OPLProjection.Snapshot, action: OPLProjection.Action?) -> SnapshotView {
        let fields: [(String, String?)] = [
            ("Action", "\(action?.employer.name ?? "?") (\(s.actionId))"), ("Coordinates", "\(s.latitude), \(s.longitude)"),
            ("Address", s.address), ("Notes", s.notes), ("Submitted", "\(s.submittedAt) by \(s.submittedBy)"),
        ]
        return SnapshotView(id: s.id, base: "/moderation/snapshots/\(s.id)", status: s.status.rawValue, flags: Flags(s.flags, checked: s.checked),
                            details: fields.compactMap { name, value in value.map { Detail(name: name, value: visibleText($0)) } },
                            decisions: decisions(s.decisions), hasDecisions: !s.decisions.isEmpty, canDecide: s.status == .submitted)
    }

    /// A refusal, with the way back.
    struct Refusal: Sendable {
        let message: String
        let back: String
    }
}
