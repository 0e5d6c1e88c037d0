public import MusterEvents
public import MusterLog

/// Every funnel step each person reached, kept per person so a funnel can be asked with any
/// ordered steps and conversion window (`FunnelReport`). A person is the app's install id
/// (`anonymousId`), or the session when the app sends none.
///
/// The steps people reached grow with the people, so they live in SQLite (`FunnelTables`); the
/// state in memory is only the bounded list of funnels and step names.
public enum FunnelProjection: TableProjection {
    public static let name = "funnel"
    /// 2: the hits moved from the snapshot file to SQLite. 3: each person's hits are trimmed to
    /// `maxHitsPerPerson` once a batch, not after every hit (a table remembers how far).
    public static let version = 3
    public static let filterSubjects = ["events.analytics.funnel.>"]
    public static let initialState = State()
    public static let storage = ProjectionTables<Self>(create: FunnelTables.create, endBatch: { _, db in
        try FunnelTables.trim(in: db)
    }) { event, state, db in
        guard let hit = admit(event, to: state) else { return }
        try FunnelTables.insert(hit, in: db)
        note(hit, in: &state)
    }
    /// Steps kept per person and funnel; older ones are dropped first.
    public static let maxHitsPerPerson = 200
    /// Funnels per app and step names per funnel the fold keeps (app keys ship inside apps, so a
    /// hostile sender must not grow it without end); events beyond are not counted.
    public static let maxFunnels = 100
    public static let maxSteps = 50

    public struct Hit: Codable, Sendable, Equatable {
        public var step: String
        public var at: Int64
        public var segment: String
        public var appVersion: String

        public init(step: String, at: Int64, segment: String, appVersion: String) {
            self.step = step
            self.at = at
            self.segment = segment
            self.appVersion = appVersion
        }
    }

    public struct State: Codable, Sendable, Equatable {
        /// app → funnel → step names in the order first seen (the default step order).
        public var steps: [String: [String: [String]]] = [:]
        public var events = 0
        public init() {}
    }

    /// A step one person reached, as the fold stores it.
    public struct PersonHit: Sendable {
        public var app: String
        public var funnel: String
        public var person: String
        public var hit: Hit
    }

    /// The fold without its table: only the step names (the tests check the bounds with it).
    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        if let hit = admit(event, to: state) { note(hit, in: &state) }
    }

    /// The hit to store, or nil when the event is not a funnel step or its funnel or step is
    /// beyond the bounds.
    static func admit(_ event: RecordedEvent, to state: State) -> PersonHit? {
        guard let e = event.payload as? FunnelReached else { return nil }
        let app = e.context.app
        let known = state.steps[app]?[e.funnel]
        guard known != nil || (state.steps[app]?.count ?? 0) < maxFunnels,
              known?.contains(e.step) ?? false || (known?.count ?? 0) < maxSteps else { return nil }
        return PersonHit(app: app, funnel: e.funnel, person: e.context.anonymousId ?? e.sessionId,
                         hit: Hit(step: e.step, at: e.times.occurredMillis, segment: e.segment, appVersion: e.context.appVersion))
    }

    static func note(_ hit: PersonHit, in state: inout State) {
        if !(state.steps[hit.app]?[hit.funnel]?.contains(hit.hit.step) ?? false) {
            state.steps[hit.app, default: [:]][hit.funnel, default: []].append(hit.hit.step)
        }
        state.events += 1
    }
}
