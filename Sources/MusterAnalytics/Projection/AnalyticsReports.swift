import Histogram
import MusterEvents

/// The dashboards' answers, computed from the folds. Encoded with snake_case keys.
package enum AnalyticsReports {
    package struct TTIRow: Codable, Sendable, Equatable {
        package var screen: String
        package var source: String
        package var count: Int
        package var p50Ms: Int
        package var p90Ms: Int
        package var p99Ms: Int
    }

    package struct ScreenRow: Codable, Sendable, Equatable {
        package var screen: String
        package var views: Int
        package var timedViews: Int
        package var averageTimeOnScreenMs: Int?
        package var medianTimeOnScreenMs: Int?
    }

    package struct EndpointRow: Codable, Sendable, Equatable {
        package var endpoint: String
        package var requests: Int
        package var failures: Int
        package var errorRate: Double
        package var retries: Int
        package var statuses: [String: Int]
        package var errorTypes: [String: Int]
        package var alerting: Bool
    }

    package struct HourPoint: Codable, Sendable, Equatable {
        package var hour: String
        package var requests: Int
        package var failures: Int
        package var errorRate: Double
    }

    package struct AlertRow: Codable, Sendable, Equatable {
        package var alertId: String
        package var rule: String
        package var target: String
        package var message: String
        package var raisedAt: String
        package var resolvedAt: String?
        package var observed: Double
        package var count: Int
    }

    package struct Errors: Codable, Sendable, Equatable {
        package var endpoints: [EndpointRow]
        package var hourly: [HourPoint]
        package var alerts: [AlertRow]
    }

    package struct GroupRow: Codable, Sendable, Equatable {
        package var fingerprint: String
        package var exceptionType: String
        package var reason: String?
        package var topFrames: [String]
        package var firstSeen: String
        package var lastSeen: String
        package var count: Int
        package var sessions: Int
        package var versions: [String: Int]
    }

    package struct SessionRow: Codable, Sendable, Equatable {
        package var key: String
        package var sessions: Int
        package var crashedSessions: Int
        package var crashFreeRate: Double?
    }

    package struct Crashes: Codable, Sendable, Equatable {
        package var sessions: Int
        package var crashedSessions: Int
        package var crashFreeRate: Double?
        package var byDay: [SessionRow]
        package var byVersion: [SessionRow]
        package var groups: [GroupRow]
        package var alerts: [AlertRow]
    }

    package struct CrashDetail: Codable, Sendable, Equatable {
        package var group: GroupRow
        package var osVersions: [String: Int]
        package var devices: [String: Int]
        package var recent: [CrashRecorded]
    }

    package static func tti(_ state: AnalyticsProjection.State, app: String) -> [TTIRow] {
        (state.tti[app] ?? [:]).sorted { $0.key < $1.key }.map { key, h in
            let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
            return TTIRow(screen: parts[0], source: parts.count > 1 ? parts[1] : "", count: Int(h.totalCount),
                          p50Ms: Int(h.valueAtPercentile(50)), p90Ms: Int(h.valueAtPercentile(90)), p99Ms: Int(h.valueAtPercentile(99)))
        }
    }

    package static func screens(_ state: AnalyticsProjection.State, app: String) -> [ScreenRow] {
        (state.screens[app] ?? [:]).sorted { $0.value.views > $1.value.views || ($0.value.views == $1.value.views && $0.key < $1.key) }
            .map { screen, s in
                ScreenRow(screen: screen, views: s.views, timedViews: s.timed,
                          averageTimeOnScreenMs: s.timed == 0 ? nil : s.totalMillis / s.timed,
                          medianTimeOnScreenMs: s.timed == 0 ? nil : Int(s.timeOnScreen.valueAtPercentile(50)))
            }
    }

    package static func errors(_ state: AnalyticsProjection.State, app: String, endpoint: String? = nil) -> Errors {
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

    package static func alerts(_ state: AnalyticsProjection.State, app: String, rule: AlertRule? = nil) -> [AlertRow] {
        state.alerts.values.filter { $0.raised.app == app && (rule == nil || $0.raised.rule == rule) }
            .sorted { $0.raised.windowEnd < $1.raised.windowEnd || ($0.raised.windowEnd == $1.raised.windowEnd && $0.raised.alertId < $1.raised.alertId) }
            .map { a in
                AlertRow(alertId: a.raised.alertId, rule: a.raised.rule.rawValue, target: a.raised.target, message: a.raised.message,
                         raisedAt: a.raised.windowEnd, resolvedAt: a.resolved?.resolvedAt, observed: a.raised.observed, count: a.raised.count)
            }
    }

    package static func crashes(_ state: AnalyticsProjection.State, sessions: SessionCounts, app: String) -> Crashes {
        let byDay = sessions.byDay.sorted { $0.key < $1.key }.map { sessionRow($0.key, $0.value) }
        let byVersion = sessions.byVersion.sorted { FunnelReport.versionOrder($0.key, $1.key) }.map { sessionRow($0.key, $0.value) }
        let groups = (state.crashGroups[app] ?? [:]).values
            .sorted { $0.count > $1.count || ($0.count == $1.count && $0.fingerprint < $1.fingerprint) }
            .map { groupRow($0, sessions: sessions.crashGroups[$0.fingerprint] ?? 0) }
        return Crashes(sessions: sessions.all.sessions, crashedSessions: sessions.all.crashed, crashFreeRate: sessions.all.crashFreeRate,
                       byDay: byDay, byVersion: byVersion, groups: groups, alerts: alerts(state, app: app, rule: .crashSpike))
    }

    package static func crash(_ state: AnalyticsProjection.State, sessions: SessionCounts, app: String, fingerprint: String) -> CrashDetail? {
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
