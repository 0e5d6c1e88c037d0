package import GRDB
import MusterLog

/// The analytics fold's tables: what grows with the sessions and reports rather than with the
/// screens and endpoints — the sessions seen (per day and per app version, with whether they
/// crashed), the sessions of each crash group, and the crash report ids already counted.
package enum AnalyticsTables {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE analytics_sessions (
              app TEXT NOT NULL,
              kind TEXT NOT NULL,      -- 'day' (2026-11-21) or 'version' (2.3.0)
              key TEXT NOT NULL,
              session TEXT NOT NULL,
              crashed INTEGER NOT NULL,
              PRIMARY KEY (app, kind, key, session)) WITHOUT ROWID;
            CREATE TABLE analytics_crash_sessions (
              app TEXT NOT NULL,
              fingerprint TEXT NOT NULL,
              session TEXT NOT NULL,
              PRIMARY KEY (app, fingerprint, session)) WITHOUT ROWID;
            CREATE TABLE analytics_crash_reports (
              app TEXT NOT NULL,
              report_id TEXT NOT NULL,
              PRIMARY KEY (app, report_id)) WITHOUT ROWID;
            """)
    }

    /// Notes the session on its day and app version; a crash marks it crashed on both.
    static func countSession(app: String, day: String, version: String, session: String, crashed: Bool, in db: Database) throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO analytics_sessions (app, kind, key, session, crashed) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET crashed = 1 WHERE excluded.crashed = 1 AND crashed = 0
            """)
        try upsert.run(app, "day", day, session, crashed)
        try upsert.run(app, "version", version, session, crashed)
    }

    /// Drops the app's sessions of days up to `cutoff` (the crash-free rate is a recent figure).
    static func forgetDays(app: String, through cutoff: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM analytics_sessions WHERE app = ? AND kind = 'day' AND key <= ?", arguments: [app, cutoff])
    }

    static func addCrashSession(app: String, fingerprint: String, session: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO analytics_crash_sessions (app, fingerprint, session) VALUES (?, ?, ?)")
            .run(app, fingerprint, session)
    }

    /// True the first time a report id is seen: a report resent after the log's duplicate window counts once.
    static func firstReport(app: String, reportId: String, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO analytics_crash_reports (app, report_id) VALUES (?, ?)")
            .run(app, reportId)
        return db.changesCount > 0
    }

    /// The session figures of one app.
    package static func sessions(app: String, in db: Database) throws -> SessionCounts {
        func rows(_ kind: String) throws -> [String: SessionCounts.Tally] {
            var tallies: [String: SessionCounts.Tally] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT key, COUNT(*), SUM(crashed) FROM analytics_sessions WHERE app = ? AND kind = ? GROUP BY key
                """, arguments: [app, kind]) {
                tallies[row[0]] = SessionCounts.Tally(sessions: row[1], crashed: row[2])
            }
            return tallies
        }
        // A session that runs past midnight is in two days: count it once.
        let all = try Row.fetchOne(db, sql: """
            SELECT COUNT(DISTINCT session), COUNT(DISTINCT CASE WHEN crashed = 1 THEN session END)
            FROM analytics_sessions WHERE app = ? AND kind = 'day'
            """, arguments: [app])
        var groups: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT fingerprint, COUNT(*) FROM analytics_crash_sessions WHERE app = ? GROUP BY fingerprint
            """, arguments: [app]) {
            groups[row[0]] = row[1]
        }
        return SessionCounts(all: SessionCounts.Tally(sessions: all?[0] ?? 0, crashed: all?[1] ?? 0),
                             byDay: try rows("day"), byVersion: try rows("version"), crashGroups: groups)
    }
}

/// Sessions and crashed sessions of one app, as the crash reports show them.
package struct SessionCounts: Sendable, Equatable {
    package struct Tally: Sendable, Equatable {
        package var sessions = 0
        package var crashed = 0
        package var crashFreeRate: Double? { sessions == 0 ? nil : 1 - Double(crashed) / Double(sessions) }
    }
    package var all = Tally()
    package var byDay: [String: Tally] = [:]
    package var byVersion: [String: Tally] = [:]
    /// fingerprint → sessions with that crash.
    package var crashGroups: [String: Int] = [:]
    package static let none = SessionCounts()
}
