package import MusterEvents
import MusterLog

/// The Online Picket Line fold: every action and snapshot with its moderation history.
///
/// One fold feeds several views, because they all need the same facts: the regional mobile data,
/// the full blocklist, the active strikes and the moderation queue (see `Views/`).
package enum OPLProjection: Projection {
    package static let name = "opl"
    /// 2: the state counts `blocklistRevision`.
    package static let version = 2
    package static let filterSubjects = ["events.opl.action.>", "events.opl.snapshot.>"]
    package static let initialState = State()

    package struct State: Codable, Sendable, Equatable {
        package var actions: [String: Action] = [:]
        package var snapshots: [String: Snapshot] = [:]
        /// Moves only with events that change what the blocklists show (an approved or ended
        /// action, or a site added to one), so the views survive submissions and checks.
        package var blocklistRevision: UInt64 = 0

        /// Derived, never stored (rebuilt when a snapshot file is read): action ids by employer
        /// (`OPLIDs.employer(named:)`), and each submitter's submission times in ascending order
        /// (one app key submits for every install of the app). The moderation checks look a
        /// submission up here, so they cost the same with 100 actions as with 100k.
        package internal(set) var actionsByEmployer: [String: Set<String>] = [:]
        package internal(set) var actionTimesBySubmitter: [String: [Int64]] = [:]
        package internal(set) var snapshotTimesBySubmitter: [String: [Int64]] = [:]

        enum CodingKeys: String, CodingKey { case actions, snapshots, blocklistRevision }

        package init() {}

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            actions = try c.decode([String: Action].self, forKey: .actions)
            snapshots = try c.decode([String: Snapshot].self, forKey: .snapshots)
            blocklistRevision = try c.decode(UInt64.self, forKey: .blocklistRevision)
            // In submission-time order, so each time lands at the end of its list. (Not by
            // `sequence`: that is an action's latest event, and an approval moves it.)
            for action in actions.values.sorted(by: { Self.millis($0.submittedAt) < Self.millis($1.submittedAt) }) { index(action) }
            for snapshot in snapshots.values.sorted(by: { Self.millis($0.submittedAt) < Self.millis($1.submittedAt) }) { index(snapshot) }
        }

        static func millis(_ time: String) -> Int64 { Timestamp.millis(time) ?? 0 }

        mutating func index(_ action: Action) {
            actionsByEmployer[OPLIDs.employer(named: action.employer.name), default: []].insert(action.id)
            Self.insert(Self.millis(action.submittedAt), into: &actionTimesBySubmitter[action.submittedBy, default: []])
        }

        mutating func index(_ snapshot: Snapshot) {
            Self.insert(Self.millis(snapshot.submittedAt), into: &snapshotTimesBySubmitter[snapshot.submittedBy, default: []])
        }

        /// Keeps `times` ascending: an append when `time` is the newest (almost always), else a
        /// binary-searched insert (clocks of two appending processes may disagree a little).
        static func insert(_ time: Int64, into times: inout [Int64]) {
            guard let last = times.last, time < last else { return times.append(time) }
            times.insert(time, at: firstIndex(in: times) { $0 > time })
        }

        /// The first index whose time satisfies `isAfter` (false, then true, along ascending `times`).
        static func firstIndex(in times: [Int64], where isAfter: (Int64) -> Bool) -> Int {
            var (low, high) = (0, times.count)
            while low < high {
                let middle = (low + high) / 2
                if isAfter(times[middle]) { high = middle } else { low = middle + 1 }
            }
            return low
        }

        /// How many of `times` (ascending) lie within `window` before `now` (or after it).
        package static func recent(_ times: [Int64]?, now: Int64, window: Int64 = 3_600_000) -> Int {
            guard let times else { return 0 }
            return times.count - firstIndex(in: times) { now - $0 < window }
        }

        /// Moves an action to its new employer's entry when an approval renamed the employer.
        mutating func reindex(_ id: String, employerBefore before: String, after: String) {
            guard before != after else { return }
            let old = OPLIDs.employer(named: before)
            actionsByEmployer[old]?.remove(id)
            if actionsByEmployer[old]?.isEmpty == true { actionsByEmployer[old] = nil } // as a reload would build it
            actionsByEmployer[OPLIDs.employer(named: after), default: []].insert(id)
        }
    }

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let e as ActionSubmitted:
            guard state.actions[e.actionId] == nil else { throw ProjectionRejection("action \(e.actionId) was already submitted") }
            let action = Action(submitted: e, at: event.time, sequence: event.sequence)
            state.actions[e.actionId] = action
            state.index(action)
        case let e as SnapshotSubmitted:
            guard state.snapshots[e.snapshotId] == nil else { throw ProjectionRejection("snapshot \(e.snapshotId) was already submitted") }
            let snapshot = Snapshot(submitted: e, at: event.time, sequence: event.sequence)
            state.snapshots[e.snapshotId] = snapshot
            state.index(snapshot)
            state.actions[e.actionId]?.snapshotIds.append(e.snapshotId)
        case let e as SnapshotChecked:
            try updateSnapshot(e.snapshotId, in: &state, event) { $0.flags = e.flags; $0.checked = true }
        case let e as SnapshotApproved:
            try updateSnapshot(e.snapshotId, in: &state, event) { snapshot in
                guard snapshot.status == .submitted else { throw ProjectionRejection("snapshot \(e.snapshotId) is \(snapshot.status.rawValue)") }
                snapshot.status = .approved
                snapshot.decisions.append(Decision(kind: "approved", moderator: e.moderator, reason: e.reason, at: event.time))
            }
            if let action = state.actions[e.actionId] {
                state.actions[e.actionId]?.locations.append(e.site)
                if action.showsInBlocklists { state.blocklistRevision += 1 }
            }
        case let e as SnapshotRejected:
            try updateSnapshot(e.snapshotId, in: &state, event) { snapshot in
                guard snapshot.status == .submitted else { throw ProjectionRejection("snapshot \(e.snapshotId) is \(snapshot.status.rawValue)") }
                snapshot.status = .rejected
                snapshot.decisions.append(Decision(kind: "rejected", moderator: e.moderator, reason: e.reason, at: event.time))
            }
        default:
            try applyToAction(event, to: &state)
        }
    }

    private static func applyToAction(_ event: RecordedEvent, to state: inout State) throws {
        guard event.type.aggregate == "action" else { return } // a newer type this version does not know
        guard var action = state.actions[event.aggregateID] else {
            throw ProjectionRejection("\(event.type) for unknown action \(event.aggregateID)")
        }
        let shownBefore = action.showsInBlocklists
        let employerBefore = action.employer.name
        try action.apply(event, known: { state.actions[$0] != nil })
        action.sequence = event.sequence
        if shownBefore || action.showsInBlocklists { state.blocklistRevision += 1 }
        state.actions[event.aggregateID] = action
        state.reindex(action.id, employerBefore: employerBefore, after: action.employer.name)
    }

    private static func updateSnapshot(_ id: String, in state: inout State, _ event: RecordedEvent,
                                       _ change: (inout Snapshot) throws -> Void) throws {
        guard var snapshot = state.snapshots[id] else { throw ProjectionRejection("\(event.type) for unknown snapshot \(id)") }
        try change(&snapshot)
        snapshot.sequence = event.sequence
        state.snapshots[id] = snapshot
    }
}
