import Histogram
import MusterEvents

/// The dashboards' answers, computed from the folds. Encoded with snake_case keys.
public enum AnalyticsReports {
    public struct TTIRow: Codable, Sendable, Equatable {
        public var screen: String
        public var source: String
        public var count: Int
        public var p50Ms: Int
        public var p90Ms: Int
        public var p99Ms: Int
    }

    public struct ScreenRow: Codable, Sendable, Equatable {
        public var screen: String
        public var views: Int
        public var timedViews: Int
        public var averageTimeOnScreenMs: Int?
        public var medianTimeOnScreenMs: Int?
    }

    public struct EndpointRow: Codable, Sendable, Equatable {
        public var endpoint: String
        public var requests: Int
        public var failures: Int
        public var errorRate: Double
        public var retries: Int
        public var statuses: [String: Int]
        public var errorTypes: [String: Int]
        public var alerting: Bool
    }

    public struct HourPoint: Codable, Sendable, Equatable {
        public var hour: String
        public var requests: Int
        public var failures: Int
        public var errorRate: Double
    }

    public struct AlertRow: Codable, Sendable, Equatable {
        public var alertId: String
        public var rule: String
        public var target: String
        public var message: String
        public var raisedAt: String
        public var resolvedAt: String?
        public var observed: Double
        public var count: Int
    }

    public struct Errors: Codable, Sendable, Equatable {
        public var endpoints: [EndpointRow]
        public var hourly: [HourPoint]
        public var alerts: [AlertRow]
    }

    public struct GroupRow: Codable, Sendable, Equatable {
        public var fingerprint: String
        public var exceptionType: String
        public var reason: String?
        public var topFrames: [String]
        public var firstSeen: String
        public var lastSeen: String
        public var count: Int
        public var sessions: Int
        public var versions: [String: Int]
    }

    public struct SessionRow: Codable, Sendable, Equatable {
        public var key: String
        public var sessions: Int
        public var crashedSessions: Int
        public var crashFreeRate: Double?
    }

    public struct Crashes: Codable, Sendable, Equatable {
        public var sessions: Int
        public var crashedSessions: Int
        public var crashFreeRate: Double?
        public var byDay: [SessionRow]
        public var byVersion: [SessionRow]
        public var groups: [GroupRow]
        public var alerts: [AlertRow]
    }

    public struct CrashDetail: Codable, Sendable, Equatable {
        public var group: GroupRow
        public var osVersions: [String: Int]
        public var devices: [String: Int]
        public var recent: [CrashRecorded]
    }

    public static func tti(_ state: AnalyticsProjection.State, app: String) -> [TTIRow] {
        (state.tti[app] ?? [:]).sorted { $0.key < $1.key }.map { key, h in
            let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
            return TTIRow(screen: parts[0], source: parts.count > 1 ? parts[1] : "", count: Int(h.totalCount),
                          p50Ms: Int(h.valueAtPercentile(50)), p90Ms: Int(h.valueAtPercentile(90)), p99Ms: Int(h.valueAtPercentile(99)))
        }
    }

    public static func screens(_ state: AnalyticsProjection.State, app: String) -> [ScreenRow] {
        (state.screens[app] ?? [:]).sorted { $0.value.views > $1.value.views || ($0.value.views == $1.value.views && $0.key < $1.key) }
            .map { screen, s in
                ScreenRow(screen: screen, views: s.views, timedViews: s.timed,
                          averageTimeOnScreenMs: s.timed == 0 ? nil : s.totalMillis / s.timed,
                          medianTimeOnScreenMs: s.timed == 0 ? nil : Int(s.timeOnScreen.valueAtPercentile(50)))
            }
    }

    public static func errors(_ state: AnalyticsProjection.State, app: String, endpoint: String? = nil) -> Errors {
        let all = state.endpoints[app] ?? [:]
        let rows = all.sorted { $0.value.failures > $1.value.failures || ($0.value.failures == $1.value.failures && $0.key < $1.key) }
            .map { key, s in
                EndpointRow(endpoint: key, requests: s.requests, failures: s.failures, errorRate: rate(s.failures, s.requests), retries: s.retries,
                            statuses: Dictionary(uniqueKeysWithValues: s.statuses.map { (String($0.key), $0.value) }),
                            errorTypes: s.errorTypes, alerting: state.rules.isFiring(app: app, target: key))
            }
        var hours: [Int64: EndpointStats.Counts] = [:]
        for (key, s) in all where endpoint == nil || key == endpoint {
            for (hour, c) in s.hours {
                hours[hour, default: .init()].requests += c.requests
                hours[hour, default: .init()].failures += c.failures
            }
        }
        let hourly = hours.sorted { $0.key < $1.key }.map { hour, c in
            HourPoint(hour: Timestamp.string(millis: hour * 3_600_000, fraction: false), requests: c.requests, failures: c.failures,
                      errorRate: rate(c.failures, c.requests))
        }
        return Errors(endpoints: rows, hourly: hourly, alerts: alerts(state, app: app, rule: .errorRate))
    }

    public static func alerts(_ state: AnalyticsProjection.State, app: String, rule: AlertRule? = nil) -> [AlertRow] {
        state.alerts.values.filter { $0.raised.app == app && (rule == nil || $0.raised.rule == rule) }
            .sorted { $0.raised.windowEnd < $1.raised.windowEnd || ($0.raised.windowEnd == $1.raised.windowEnd && $0.raised.alertId < $1.raised.alertId) }
            .map { a in
                AlertRow(alertId: a.raised.alertId, rule: a.raised.rule.rawValue, target: a.raised.target, message: a.raised.message,
                         raisedAt: a.raised.windowEnd, resolvedAt: a.resolved?.resolvedAt, observed: a.raised.observed, count: a.raised.count)
            }
    }

    public static func crashes(_ state: AnalyticsProjection.State, sessions: SessionCounts, app: String) -> Crashes {
        let byDay = sessions.byDay.sorted { $0.key < $1.key }.map { sessionRow($0.key, $0.value) }
        let byVersion = sessions.byVersion.sorted { FunnelReport.versionOrder($0.key, $1.key) }.map { sessionRow($0.key, $0.value) }
        let groups = (state.crashGroups[app] ?? [:]).values
            .sorted { $0.count > $1.count || ($0.count == $1.count && $0.fingerprint < $1.fingerprint) }
            .map { groupRow($0, sessions: sessions.crashGroups[$0.fingerprint] ?? 0) }
        return Crashes(sessions: sessions.all.sessions, crashedSessions: sessions.all.crashed, crashFreeRate: sessions.all.crashFreeRate,
                       byDay: byDay, byVersion: byVersion, groups: groups, alerts: alerts(state, app: app, rule: .crashSpike))
    }

    public static func crash(_ state: AnalyticsProjection.State, sessions: SessionCounts, app: String, fingerprint: String) -> CrashDetail? {
        guard let g = state.crashGroups[app]?[fingerprint] else { return nil }
        return CrashDetail(group: groupRow(g, sessions: sessions.crashGroups[fingerprint] ?? 0), osVersions: g.osVersions,
                           devices: g.devices, recent: g.recent.reversed())
    }

    static func groupRow(_ g: CrashGroup, sessions: Int) -> GroupRow {
        GroupRow(fingerprint: g.fingerprint, exceptionType: g.exceptionType, reason: g.reason, topFrames: g.topFrames,
                 firstSeen: Timestamp.string(millis: g.firstSeen, fraction: false), lastSeen: Timestamp.string(millis: g.lastSeen, fraction: false),
                 count: g.count, sessions: sessions, versions: g.versions)
    }

    /// Sessions of a day (or version); a session seen on two days counts on each.
    static func sessionRow(_ key: String, _ t: SessionCounts.Tally) -> SessionRow {
        SessionRow(key: key, sessions: t.sessions, crashedSessions: t.crashed, crashFreeRate: t.crashFreeRate)
    }

    static func rate(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : Double(part) / Double(whole) }
}
