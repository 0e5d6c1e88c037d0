import Foundation
import MusterEvents
package import MusterLog

/// Moderators' decisions, turned into events. Each is checked against the current state and
/// appended with the aggregate's last sequence as the expected version, so two moderators
/// deciding at once cannot both win: the second gets 409 and reloads.
package struct ModerationDesk: Sendable {
    package let runner: ProjectionRunner<OPLProjection>
    package let log: EventLog
    package let rules: BlocklistRules

    package init(runner: ProjectionRunner<OPLProjection>, log: EventLog, rules: BlocklistRules) {
        self.runner = runner
        self.log = log
        self.rules = rules
    }

    func action(_ id: String) async throws -> OPLProjection.Action {
        guard let action = await runner.read({ $0.actions[id] }) else { throw ModerationError(.notFound, "no action \(id.prefix(80))") }
        return action
    }

    func snapshot(_ id: String) async throws -> OPLProjection.Snapshot {
        guard let snapshot = await runner.read({ $0.snapshots[id] }) else { throw ModerationError(.notFound, "no snapshot \(id.prefix(80))") }
        return snapshot
    }

    static func reason(_ text: String?, default fallback: String? = nil) throws -> String {
        guard let reason = text?.trimmingCharacters(in: .whitespacesAndNewlines), !reason.isEmpty else {
            if let fallback { return fallback }
            throw ModerationError(.invalid, "reason is required: every decision records why")
        }
        return reason
    }

    static func require(_ action: OPLProjection.Action, _ allowed: Set<OPLProjection.Action.Status>, _ what: String) throws {
        guard allowed.contains(action.status) else {
            throw ModerationError(.wrongState, "cannot \(what) action \(action.id): it is \(action.status.rawValue)")
        }
    }

    /// Appends a decision; a changed aggregate is `.changedMeanwhile`, the log's other refusals
    /// pass through as they are (one mapping at the HTTP boundary).
    func decide(_ event: some EventPayload, expected: UInt64, moderator: String) async throws -> UInt64 {
        do {
            return try await log.append(event, options: AppendOptions(expected: .at(expected), actor: moderator)).sequence
        } catch let error as AppendError where error.code == .conflict {
            throw ModerationError.changedMeanwhile
        }
    }

    /// Runs a decision; when the aggregate moved because this process had not yet folded its
    /// latest event (often the automatic checks landing just after a submission), waits for the
    /// fold and decides once more on the fresh state. A real clash with another moderator then
    /// fails the state check with a clear 409.
    func retryingOnce(_ aggregate: String, _ id: String, _ decision: () async throws -> UInt64) async throws -> UInt64 {
        do {
            return try await decision()
        } catch let error as ModerationError where error.code == .changedMeanwhile {
            // Wait (up to 2 s) until this process has folded the aggregate's newest event, then decide on that.
            let newest = try await log.lastSequence(app: "opl", aggregate: aggregate, id: id) ?? 0
            _ = await runner.waitUntilApplied(newest, timeout: .seconds(2))
            return try await decision()
        }
    }

    /// One decision on an action: read it, check that its status allows `what`, append the event
    /// `make` builds from it on that version (retried once on a fresh fold, see `retryingOnce`).
    func decideOnAction(_ id: String, allowed: Set<OPLProjection.Action.Status>, _ what: String, moderator: String,
                        _ make: @escaping (OPLProjection.Action) async throws -> any EventPayload) async throws -> UInt64 {
        try await retryingOnce("action", id) {
            let current = try await action(id)
            try Self.require(current, allowed, what)
            return try await decide(try await make(current), expected: current.sequence, moderator: moderator)
        }
    }

    /// The same for a snapshot, which only a submitted one allows.
    func decideOnSnapshot(_ id: String, moderator: String,
                          _ make: @escaping (OPLProjection.Snapshot) throws -> any EventPayload) async throws -> UInt64 {
        try await retryingOnce("snapshot", id) {
            let current = try await snapshot(id)
            guard current.status == .submitted else { throw ModerationError(.wrongState, "snapshot \(id) is \(current.status.rawValue)") }
            return try await decide(try make(current), expected: current.sequence, moderator: moderator)
        }
    }

    /// A rejected action is approved only after a moderator reopens it (its own decision):
    /// otherwise a late approval silently overturns a rejection.
    package func approve(_ id: String, edits: ApproveEdits, moderator: String) async throws -> UInt64 {
        try await decideOnAction(id, allowed: [.submitted, .approved], "approve", moderator: moderator) { current in
            try Self.approval(of: current, edits: edits, moderator: moderator, rules: rules)
        }
    }

    static func approval(of current: OPLProjection.Action, edits: ApproveEdits, moderator: String, rules: BlocklistRules) throws -> ActionApproved {
        let id = current.id
        var employer = current.employer
        if let e = edits.employer {
            employer.name = e.name ?? employer.name
            employer.industry = e.industry.map { $0.isEmpty ? nil : $0 } ?? employer.industry
            employer.website = e.website.map { $0.isEmpty ? nil : $0 } ?? employer.website
        }
        var details = current.details
        if let a = edits.action {
            details.organization = a.organization ?? details.organization
            details.actionType = a.actionType ?? details.actionType
            details.location = a.location ?? details.location
            if let start = a.startDate {
                guard let date = OPLDates.parse(start) else { throw ModerationError(.invalid, "action.startDate must be ISO-8601 or YYYY-MM-DD") }
                details.startDate = Timestamp.string(date)
            }
            details.durationDays = a.durationDays ?? details.durationDays
            details.description = a.description ?? details.description
            details.demands = a.demands.map { $0.isEmpty ? nil : $0 } ?? details.demands
            details.contactInfo = a.contactInfo.map { $0.isEmpty ? nil : $0 } ?? details.contactInfo
            details.learnMoreUrl = a.learnMoreUrl.map { $0.isEmpty ? nil : $0 } ?? details.learnMoreUrl
            details.logoUrl = a.logoUrl.map { $0.isEmpty ? nil : $0 } ?? details.logoUrl
            details.coordinates = a.coordinates ?? details.coordinates
        }
        if details.coordinates == nil, let placed = current.coordinates { details.coordinates = placed } // keep the geocoded place
        let own = try ownDomains(edits.ownDomains, current: current, website: employer.website, rules: rules)
        var urls: [String] = []
        for typed in edits.urls ?? (current.status == .approved ? current.urls : employer.website.map { [$0] } ?? []) {
            // Every entry must block something: a platform's root is refused, with the reason.
            if case .nothing(let why) = rules.reach(of: typed, own: Set(own)) { throw ModerationError(.invalid, "urls: \(why)") }
            guard let entry = BlocklistURLs.entry(typed) else { throw ModerationError(.invalid, "urls: cannot read a host from \(typed.prefix(100))") }
            if !urls.contains(entry) { urls.append(entry) }
        }
        let sites: [ActionSite]
        if let given = edits.locations {
            sites = given.enumerated().map { index, site in
                ActionSite(locationId: OPLIDs.derived("loc_", from: id, String(index), "\(site.latitude)", "\(site.longitude)"),
                           type: site.type ?? "picket-site", name: site.name, latitude: site.latitude, longitude: site.longitude,
                           notificationRadius: site.notificationRadius ?? 250)
            }
        } else {
            sites = current.locations
        }
        return ActionApproved(actionId: id, employerId: OPLIDs.employer(named: employer.name), employer: employer, action: details,
                              urls: urls, ownDomains: own, locations: sites, moderator: moderator, reason: try Self.reason(edits.reason, default: "approved"))
    }

    /// The employer's own domains for an approval: as the moderator marked them (`https://acme.com`
    /// is read as `acme.com`), else as the action already has them, else the website's.
    static func ownDomains(_ marked: [String]?, current: OPLProjection.Action, website: String?, rules: BlocklistRules) throws -> [String] {
        guard let marked else {
            if current.status == .approved, let recorded = current.ownDomains { return recorded }
            return rules.ownDomains(recorded: nil, website: website).sorted()
        }
        guard marked.count <= 20 else { throw ModerationError(.invalid, "ownDomains: at most 20") }
        var domains: [String] = []
        for typed in marked where !typed.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let domain = BlocklistURLs.host(of: typed) else { throw ModerationError(.invalid, "ownDomains: cannot read a domain from \(typed.prefix(100))") }
            if let problem = rules.ownDomainProblem(domain) { throw ModerationError(.invalid, "ownDomains: \(problem)") }
            if !domains.contains(domain) { domains.append(domain) }
        }
        return domains
    }

    package func reject(_ id: String, _ request: DecisionRequest, moderator: String) async throws -> UInt64 {
        try await decideOnAction(id, allowed: [.submitted], "reject", moderator: moderator) { _ in
            ActionRejected(actionId: id, moderator: moderator, reason: try Self.reason(request.reason))
        }
    }

    package func reopen(_ id: String, _ request: DecisionRequest, moderator: String) async throws -> UInt64 {
        try await decideOnAction(id, allowed: [.rejected], "reopen", moderator: moderator) { _ in
            ActionReopened(actionId: id, moderator: moderator, reason: try Self.reason(request.reason))
        }
    }

    package func merge(_ id: String, _ request: DecisionRequest, moderator: String) async throws -> UInt64 {
        try await decideOnAction(id, allowed: [.submitted, .approved], "merge", moderator: moderator) { _ in
            guard let into = request.into, into != id else { throw ModerationError(.invalid, "into must name another action") }
            let target = try await self.action(into)
            guard target.status != .rejected, target.status != .merged else {
                throw ModerationError(.wrongState, "cannot merge into \(into): it is \(target.status.rawValue)")
            }
            return ActionMerged(actionId: id, into: into, moderator: moderator, reason: try Self.reason(request.reason))
        }
    }

    package func end(_ id: String, _ request: DecisionRequest, moderator: String) async throws -> UInt64 {
        try await decideOnAction(id, allowed: [.approved], "end", moderator: moderator) { _ in
            ActionEnded(actionId: id, moderator: moderator, reason: try Self.reason(request.reason))
        }
    }

    package func extend(_ id: String, _ request: DecisionRequest, moderator: String) async throws -> UInt64 {
        try await decideOnAction(id, allowed: [.approved, .ended], "extend", moderator: moderator) { _ in
            guard let days = request.durationDays else { throw ModerationError(.invalid, "durationDays is required (the new total)") }
            return ActionExtended(actionId: id, durationDays: days, moderator: moderator, reason: try Self.reason(request.reason))
        }
    }

    package func approveSnapshot(_ id: String, _ request: SnapshotApproval, moderator: String) async throws -> UInt64 {
        try await decideOnSnapshot(id, moderator: moderator) { current in
            let site = ActionSite(locationId: OPLIDs.siteID(forSnapshot: id), type: request.type ?? "picket-site",
                                  name: (request.name ?? current.address).map { String($0.prefix(300)) }, latitude: current.latitude,
                                  longitude: current.longitude, notificationRadius: request.notificationRadius ?? 250)
            return SnapshotApproved(snapshotId: id, actionId: current.actionId, site: site, moderator: moderator,
                                    reason: try Self.reason(request.reason, default: "approved"))
        }
    }

    package func rejectSnapshot(_ id: String, _ request: DecisionRequest, moderator: String) async throws -> UInt64 {
        try await decideOnSnapshot(id, moderator: moderator) { _ in
            SnapshotRejected(snapshotId: id, moderator: moderator, reason: try Self.reason(request.reason))
        }
    }
}
