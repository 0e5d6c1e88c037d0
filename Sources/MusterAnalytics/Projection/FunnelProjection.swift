public import MusterEvents
public import MusterLog

/// Every funnel step each person reached, kept per person so a funnel can be asked with any
/// ordered steps and conversion window (`FunnelReport`). A person is the app's install id
/// (`anonymousId`), or the session when the app sends none.
public enum FunnelProjection: Projection {
    public static let name = "funnel"
    public static let version = 1
    public static let filterSubjects = ["events.analytics.funnel.>"]
    public static let initialState = State()
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
        /// app → funnel → person → steps in time order.
        public var people: [String: [String: [String: [Hit]]]] = [:]
        /// app → funnel → step names in the order first seen (the default step order).
        public var steps: [String: [String: [String]]] = [:]
        public var events = 0
        public init() {}
    }

    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        guard let e = event.payload as? FunnelReached else { return }
        let app = e.context.app
        let known = state.steps[app]?[e.funnel]
        guard known != nil || (state.steps[app]?.count ?? 0) < maxFunnels,
              known?.contains(e.step) ?? false || (known?.count ?? 0) < maxSteps else { return }
        let person = e.context.anonymousId ?? e.sessionId
        let hit = Hit(step: e.step, at: e.times.occurredMillis, segment: e.segment, appVersion: e.context.appVersion)
        state.people[app, default: [:]][e.funnel, default: [:]][person, default: []].insertSorted(hit, limit: maxHitsPerPerson)
        if !(known?.contains(e.step) ?? false) {
            state.steps[app, default: [:]][e.funnel, default: []].append(e.step)
        }
        state.events += 1
    }
}

extension Array where Element == FunnelProjection.Hit {
    /// Keeps time order when offline batches arrive late; drops the oldest beyond `limit`.
    mutating func insertSorted(_ hit: Element, limit: Int) {
        if let last, last.at > hit.at {
            let index = firstIndex { $0.at > hit.at } ?? endIndex
            insert(hit, at: index)
        } else {
            append(hit)
        }
        if count > limit { removeFirst(count - limit) }
    }
}
