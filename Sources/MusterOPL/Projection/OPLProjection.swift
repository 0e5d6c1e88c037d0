import MusterEvents
import MusterLog

/// The Online Picket Line fold: every action and snapshot with its moderation history.
///
/// One fold feeds several views, because they all need the same facts: the regional mobile data,
/// the full blocklist, the active strikes and the moderation queue (see `Views/`).
public enum OPLProjection: Projection {
    public static let name = "opl"
    /// 2: the state counts `blocklistRevision`.
    public static let version = 2
    public static let filterSubjects = ["events.opl.action.>", "events.opl.snapshot.>"]
    public static let initialState = State()

    public struct State: Codable, Sendable, Equatable {
        public var actions: [String: Action] = [:]
        public var snapshots: [String: Snapshot] = [:]
        /// Moves only with events that change what the blocklists show (an approved or ended
        /// action, or a site added to one), so the views survive submissions and checks.
        public var blocklistRevision: UInt64 = 0
        public init() {}
    }

    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let e as ActionSubmitted:
            guard state.actions[e.actionId] == nil else { throw ProjectionRejection("action \(e.actionId) was already submitted") }
            state.actions[e.actionId] = Action(submitted: e, at: event.time, sequence: event.sequence)
        case let e as SnapshotSubmitted:
            guard state.snapshots[e.snapshotId] == nil else { throw ProjectionRejection("snapshot \(e.snapshotId) was already submitted") }
            state.snapshots[e.snapshotId] = Snapshot(submitted: e, at: event.time, sequence: event.sequence)
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
        try action.apply(event, known: { state.actions[$0] != nil })
        action.sequence = event.sequence
        if shownBefore || action.showsInBlocklists { state.blocklistRevision += 1 }
        state.actions[event.aggregateID] = action
    }

    private static func updateSnapshot(_ id: String, in state: inout State, _ event: RecordedEvent,
                                       _ change: (inout Snapshot) throws -> Void) throws {
        guard var snapshot = state.snapshots[id] else { throw ProjectionRejection("\(event.type) for unknown snapshot \(id)") }
        try change(&snapshot)
        snapshot.sequence = event.sequence
        state.snapshots[id] = snapshot
    }
}
