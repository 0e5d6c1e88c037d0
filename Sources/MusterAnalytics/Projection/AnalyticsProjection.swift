import GRDB
import MusterEvents
package import MusterLog

/// The analytics fold behind the dashboards (all but the funnel, which has its own): screens and
/// time on screen, time-to-interactive, API error rates, crash groups, crash-free sessions, and
/// alerts — both the ones the rules compute from events and the ones recorded in the log.
///
/// The sessions and crash report ids grow with the users, so they live in SQLite
/// (`AnalyticsTables`); the state in memory is bounded by the names it keeps per app.
package enum AnalyticsProjection: TableProjection {
    package static let name = "analytics"
    /// 2: sessions and crash report ids moved from the snapshot file to SQLite.
    package static let version = 2
    package static let filterSubjects = ["events.analytics.>", "events.crash.>"]
    package static let initialState = State()
    /// Transitions kept for the publisher once recorded.
    static let transitionsKept = 500
    /// Days of session ids kept for the crash-free rate per day.
    package static let sessionDays = 90
    /// Distinct screens, endpoints and crash groups kept per app; beyond, new names count under
    /// `(other)`. App keys ship inside apps, so a hostile sender must not grow the fold without end.
    package static let maxNames = 1_000
    package static let other = "(other)"

    package struct State: Codable, Sendable, Equatable {
        /// app → screen → views.
        package var screens: [String: [String: ScreenStats]] = [:]
        /// app → "screen|source" → time-to-interactive.
        package var tti: [String: [String: MillisHistogram]] = [:]
        /// app → endpoint (`GET /bookings/{id}`) → requests.
        package var endpoints: [String: [String: EndpointStats]] = [:]
        /// app → fingerprint → group.
        package var crashGroups: [String: [String: CrashGroup]] = [:]
        /// app → the newest day (`2026-11-21`) a session was seen; older days are forgotten.
        package var newestDay: [String: String] = [:]
        package var rules = AlertRules()
        /// What the rules decided, oldest first; `AlertPublisher` appends those not yet in `alerts`.
        package var transitions: [AlertTransition] = []
        /// alert id → the alert as recorded in the log.
        package var alerts: [String: AlertRecord] = [:]
        package var events = 0
        /// The session row last written to the tables: a session's events come together, and the
        /// next one of the same session, day and version needs no upsert (there were two an event).
        /// Saved with the state, in the transaction that wrote the row, so the two always agree.
        var lastCounted: CountedSession?
        package init() {}
    }

    struct CountedSession: Codable, Sendable, Equatable {
        var app, day, version, session: String
    }

    /// The four types that are nearly all of the log are read from their stored bytes (no envelope
    /// strings, no catalog lookup); `record` folds them exactly as `fold` does the decoded ones.
    package static let storage = ProjectionTables<Self>(create: AnalyticsTables.create, stored: [
        StoredReader(ScreenViewed.eventType, read: ScreenViewed.init(storedFields:), apply: foldStored),
        StoredReader(ScreenLoaded.eventType, read: ScreenLoaded.init(storedFields:), apply: foldStored),
        StoredReader(APICalled.eventType, read: APICalled.init(storedFields:), apply: foldStored),
        StoredReader(FunnelReached.eventType, read: FunnelReached.init(storedFields:), apply: foldStored),
    ]) { event, state, db in
        try fold(event, into: &state, db)
    }

    static func foldStored(_ event: some AnalyticsEvent, into state: inout State, _ db: Database) throws {
        try state.record(event, db)
        state.events += 1
    }

    static func fold(_ event: RecordedEvent, into state: inout State, _ db: Database) throws {
        switch event.payload {
        case let e as AlertRaised:
            state.alerts[e.alertId] = AlertRecord(raised: e, resolved: nil)
            return
        case let e as AlertResolved:
            state.alerts[e.alertId]?.resolved = e
            return
        case let e as CrashRecorded:
            guard try AnalyticsTables.firstReport(app: e.context.app, reportId: e.reportId, in: db) else { return }
            try state.record(crash: e, db)
        case let e as any AnalyticsEvent:
            try state.record(e, db)
        default:
            return // a newer type this version does not know
        }
        state.events += 1
    }
}

extension AnalyticsProjection.State {
    mutating func record(_ e: any AnalyticsEvent, _ db: Database) throws {
        let app = e.context.app
        let at = e.times.occurredMillis
        try countSession(app: app, session: e.sessionId, version: e.context.appVersion, at: at, crashed: false, db)
        let transitions: [AlertTransition]
        switch e {
        case let e as ScreenViewed:
            let screen = Self.capped(e.screen, in: screens[app])
            var stats = screens[app]?[screen] ?? ScreenStats()
            stats.views += 1
            if let d = e.durationMs {
                stats.timed += 1
                stats.totalMillis += d
                stats.timeOnScreen.recordMillis(d)
            }
            screens[app, default: [:]][screen] = stats
            transitions = rules.tick(app: app, minute: at / 60_000)
        case let e as ScreenLoaded:
            tti[app, default: [:]][Self.capped("\(e.screen)|\(e.source)", in: tti[app], other: "\(AnalyticsProjection.other)|\(e.source)"), default: .millis()]
                .recordMillis(e.durationMs)
            transitions = rules.tick(app: app, minute: at / 60_000)
        case let e as APICalled:
            let key = Self.capped("\(e.method) \(e.endpoint)", in: endpoints[app])
            var stats = endpoints[app]?[key] ?? EndpointStats()
            stats.requests += 1
            stats.retries += e.retryCount
            stats.statuses[e.status, default: 0] += 1
            var hour = stats.hours[at / 3_600_000] ?? .init()
            hour.requests += 1
            if e.failed {
                stats.failures += 1
                hour.failures += 1
                stats.errorTypes[e.errorType ?? "http_\(e.status)", default: 0] += 1
            }
            stats.hours[at / 3_600_000] = hour
            endpoints[app, default: [:]][key] = stats
            transitions = rules.apiCall(app: app, endpoint: key, minute: at / 60_000, failed: e.failed)
        default:
            transitions = rules.tick(app: app, minute: at / 60_000)
        }
        keep(transitions)
    }

    mutating func record(crash e: CrashRecorded, _ db: Database) throws {
        let app = e.context.app
        let at = e.times.occurredMillis
        let fingerprint = Self.capped(e.fingerprint, in: crashGroups[app])
        if let session = e.sessionId {
            try countSession(app: app, session: session, version: e.context.appVersion, at: at, crashed: true, db)
            try AnalyticsTables.addCrashSession(app: app, fingerprint: fingerprint, session: session, in: db)
        }
        var group = crashGroups[app]?[fingerprint]
            ?? CrashGroup(fingerprint: fingerprint, exceptionType: e.exception.type, reason: e.exception.reason,
                          topFrames: CrashFingerprint.topFrameNames(e.frames), firstSeen: at, lastSeen: at)
        group.count += 1
        group.firstSeen = min(group.firstSeen, at)
        group.lastSeen = max(group.lastSeen, at)
        group.versions[e.context.appVersion, default: 0] += 1
        group.osVersions["\(e.context.osName) \(e.context.osVersion)", default: 0] += 1
        group.devices[e.context.deviceModel, default: 0] += 1
        group.recent.append(e)
        group.recent.sort { $0.times.occurredMillis < $1.times.occurredMillis }
        if group.recent.count > CrashGroup.recentLimit { group.recent.removeFirst() }
        crashGroups[app, default: [:]][fingerprint] = group
        keep(rules.crash(app: app, minute: at / 60_000))
    }

    /// `name`, or `(other)` once the app already has `maxNames` others.
    static func capped<V>(_ name: String, in names: [String: V]?, other: String = AnalyticsProjection.other) -> String {
        guard let names, names[name] == nil, names.count >= AnalyticsProjection.maxNames else { return name }
        return other
    }

    mutating func countSession(app: String, session: String, version: String, at: Int64, crashed: Bool, _ db: Database) throws {
        let day = String(decoding: Timestamp.string(millis: at, fraction: false).utf8.prefix(10), as: UTF8.self) // not Character by Character
        let counted = AnalyticsProjection.CountedSession(app: app, day: day, version: version, session: session)
        // Already there (a crash still marks it crashed). Its day is not past `newestDay`, so nothing is forgotten either.
        if !crashed, counted == lastCounted { return }
        if let newest = newestDay[app], day > newest {
            // Keep the sessions of the last `sessionDays` days: the crash-free rate is a recent figure.
            let cutoff = String(Timestamp.string(millis: at - Int64(AnalyticsProjection.sessionDays) * 86_400_000).prefix(10))
            try AnalyticsTables.forgetDays(app: app, through: cutoff, in: db)
        }
        try AnalyticsTables.countSession(app: app, day: day, version: version, session: session, crashed: crashed, in: db)
        if day > newestDay[app] ?? "" { newestDay[app] = day }
        lastCounted = counted
    }

    mutating func keep(_ new: [AlertTransition]) {
        guard !new.isEmpty else { return }
        transitions.append(contentsOf: new)
        if transitions.count > AnalyticsProjection.transitionsKept {
            // Drop the oldest that the log already has; never one still to publish.
            let excess = transitions.count - AnalyticsProjection.transitionsKept
            var dropped = 0
            let alerts = self.alerts
            transitions.removeAll { t in
                guard dropped < excess, Self.isRecorded(t, in: alerts) else { return false }
                dropped += 1
                return true
            }
        }
    }

    /// True when the log already holds this transition's event.
    package func isRecorded(_ t: AlertTransition) -> Bool { Self.isRecorded(t, in: alerts) }

    static func isRecorded(_ t: AlertTransition, in alerts: [String: AlertRecord]) -> Bool {
        guard let record = alerts[t.alertId] else { return false }
        return t.kind == .raised || record.resolved != nil
    }

    /// Transitions the log does not hold yet, oldest first.
    package var unrecordedTransitions: [AlertTransition] { transitions.filter { !isRecorded($0) } }
}
