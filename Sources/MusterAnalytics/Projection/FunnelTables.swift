public import GRDB

/// The funnel fold's table: one row per step a person reached, read back per person in time order.
public enum FunnelTables {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE funnel_hits (
              app TEXT NOT NULL,
              funnel TEXT NOT NULL,
              person TEXT NOT NULL,
              at INTEGER NOT NULL,
              step TEXT NOT NULL,
              segment TEXT NOT NULL,
              app_version TEXT NOT NULL);
            CREATE INDEX funnel_hits_by_person ON funnel_hits (app, funnel, person, at);
            """)
    }

    /// Stores the hit and drops the person's oldest beyond `maxHitsPerPerson` (rowid breaks ties
    /// in arrival order, as the in-memory list did).
    static func insert(_ h: FunnelProjection.PersonHit, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO funnel_hits (app, funnel, person, at, step, segment, app_version) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [h.app, h.funnel, h.person, h.hit.at, h.hit.step, h.hit.segment, h.hit.appVersion])
        try db.cachedStatement(sql: """
            DELETE FROM funnel_hits WHERE rowid IN (
              SELECT rowid FROM funnel_hits WHERE app = ? AND funnel = ? AND person = ?
              ORDER BY at DESC, rowid DESC LIMIT -1 OFFSET ?)
            """).execute(arguments: [h.app, h.funnel, h.person, FunnelProjection.maxHitsPerPerson])
    }

    /// The report of one funnel, counted person by person as the rows come (never all in memory).
    public static func report(_ query: FunnelQuery, app: String, in db: Database) throws -> FunnelReport {
        var count = FunnelCount(query: query)
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT person, at, step, segment, app_version FROM funnel_hits
            WHERE app = ? AND funnel = ? ORDER BY person, at, rowid
            """), arguments: [app, query.funnel])
        var person: String?
        var hits: [FunnelProjection.Hit] = []
        while let row = try rows.next() {
            let who: String = row[0]
            if who != person {
                count.add(hits)
                hits.removeAll(keepingCapacity: true)
                person = who
            }
            hits.append(FunnelProjection.Hit(step: row[2], at: row[1], segment: row[3], appVersion: row[4]))
        }
        count.add(hits)
        return count.report
    }

    /// How many people reached any step of the funnel (for tests and the operator).
    public static func people(app: String, funnel: String, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT person) FROM funnel_hits WHERE app = ? AND funnel = ?",
                         arguments: [app, funnel]) ?? 0
    }
}
