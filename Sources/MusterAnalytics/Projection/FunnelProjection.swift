import GRDB
package import MusterEvents
import MusterJSON
package import MusterLog

/// Every funnel step each person reached, kept per person so a funnel can be asked with any
/// ordered steps and conversion window (`FunnelReport`). A person is the app's install id
/// (`anonymousId`), or the session when the app sends none.
///
/// The steps people reached grow with the people, so they live in SQLite (`FunnelTables`); the
/// state in memory is only the bounded list of funnels and step names.
package enum FunnelProjection: TableProjection {
    package static let name = "funnel"
    /// 2: the hits moved from the snapshot file to SQLite. 3: each person's hits are trimmed to
    /// `maxHitsPerPerson` once a batch, not after every hit. 4: one table keyed by person, time
    /// and sequence (no rowid and second index); the batch's people are trimmed by key.
    package static let version = 4
    package static let filterSubjects = ["events.analytics.funnel.>"]
    package static let initialState = State()
    package static let storage = ProjectionTables<Self>(create: FunnelTables.create, endBatch: { state, db in
        for person in state.touched { try FunnelTables.trim(person, in: db) }
        state.touched = []
    }, stored: [StoredReader(FunnelReached.eventType, read: PersonHit.init(storedData:), apply: fold)]) { event, state, db in
        guard let e = event.payload as? FunnelReached else { return }
        try fold(PersonHit(e), sequence: event.sequence, into: &state, db)
    }

    /// Stores the hit and notes its step, unless its funnel or step is beyond the bounds.
    static func fold(_ hit: PersonHit, sequence: UInt64, into state: inout State, _ db: Database) throws {
        guard admits(hit, state) else { return }
        try FunnelTables.insert(hit, sequence: sequence, in: db)
        note(hit, in: &state)
        state.touched.insert(PersonKey(app: hit.app, funnel: hit.funnel, person: hit.person))
    }
    /// Steps kept per person and funnel; older ones are dropped first.
    package static let maxHitsPerPerson = 200
    /// Funnels per app and step names per funnel the fold keeps (app keys ship inside apps, so a
    /// hostile sender must not grow it without end); events beyond are not counted.
    package static let maxFunnels = 100
    package static let maxSteps = 50

    package struct Hit: Codable, Sendable, Equatable {
        package var step: String
        package var at: Int64
        package var segment: String
        package var appVersion: String

        package init(step: String, at: Int64, segment: String, appVersion: String) {
            self.step = step
            self.at = at
            self.segment = segment
            self.appVersion = appVersion
        }
    }

    package struct State: Codable, Sendable, Equatable {
        /// app → funnel → step names in the order first seen (the default step order).
        package var steps: [String: [String: [String]]] = [:]
        package var events = 0
        /// The people the batch under way gave hits, trimmed when it ends (so always empty when
        /// the state is saved, and never written).
        var touched: Set<PersonKey> = []
        package init() {}

        enum CodingKeys: String, CodingKey { case steps, events }
    }

    /// Whose hits one row of the table is.
    struct PersonKey: Hashable, Sendable {
        var app: String
        var funnel: String
        var person: String
    }

    /// A step one person reached, as the fold stores it.
    package struct PersonHit: Sendable, Equatable {
        package var app: String
        package var funnel: String
        package var person: String
        package var hit: Hit

        init(_ e: FunnelReached) {
            self.init(app: e.context.app, funnel: e.funnel, person: e.context.anonymousId ?? e.sessionId, step: e.step,
                      occurredAt: e.times.occurredAt, segment: e.segment, appVersion: e.context.appVersion)
        }

        /// From a stamped event's stored `data`, as `init(_:)` takes it from the decoded event.
        init(storedData data: JSONFields) throws {
            let context = try data.required(data.object("context"), "context")
            let times = try data.required(data.object("times"), "times")
            self.init(app: try context.required(context.string("app"), "app"), funnel: try data.required(data.string("funnel"), "funnel"),
                      person: try context.string("anonymousId") ?? data.required(data.string("sessionId"), "sessionId"),
                      step: try data.required(data.string("step"), "step"),
                      occurredAt: try times.required(times.string("occurredAt"), "occurredAt"),
                      segment: try data.required(data.string("segment"), "segment"),
                      appVersion: try context.required(context.string("appVersion"), "appVersion"))
        }

        init(app: String, funnel: String, person: String, step: String, occurredAt: String, segment: String, appVersion: String) {
            self.app = app
            self.funnel = funnel
            self.person = person
            hit = Hit(step: step, at: Timestamp.millis(occurredAt) ?? 0, segment: segment, appVersion: appVersion)
        }
    }

    /// The fold without its table: only the step names (the tests check the bounds with it).
    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        guard let e = event.payload as? FunnelReached else { return }
        let hit = PersonHit(e)
        if admits(hit, state) { note(hit, in: &state) }
    }

    /// Whether the hit's funnel and step are within the bounds.
    static func admits(_ hit: PersonHit, _ state: State) -> Bool {
        let known = state.steps[hit.app]?[hit.funnel]
        return (known != nil || (state.steps[hit.app]?.count ?? 0) < maxFunnels)
            && (known?.contains(hit.hit.step) ?? false || (known?.count ?? 0) < maxSteps)
    }

    static func note(_ hit: PersonHit, in state: inout State) {
        if !(state.steps[hit.app]?[hit.funnel]?.contains(hit.hit.step) ?? false) {
            state.steps[hit.app, default: [:]][hit.funnel, default: []].append(hit.hit.step)
        }
        state.events += 1
    }
}
