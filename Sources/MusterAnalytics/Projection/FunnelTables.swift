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
            -- Hits past this rowid were added since the last trim (rowids only grow between trims).
            CREATE TABLE funnel_trimmed (upto INTEGER NOT NULL);
            INSERT INTO funnel_trimmed (upto) VALUES (0);
            """)
    }

    /// Stores the hit; `trim` keeps the person within `maxHitsPerPerson` when the batch ends.
    static func insert(_ h: FunnelProjection.PersonHit, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO funnel_hits (app, funnel, person, at, step, segment, app_version) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [h.app, h.funnel, h.person, h.hit.at, h.hit.step, h.hit.segment, h.hit.appVersion])
    }

    /// Drops the oldest hits beyond `maxHitsPerPerson` (rowid breaks ties in arrival order) of
    /// every person who got a hit since the last trim: one statement a batch instead of a delete
    /// after every insert.
    static func trim(in db: Database) throws {
        try db.cachedStatement(sql: """
            DELETE FROM funnel_hits WHERE rowid IN (
              SELECT rowid FROM (
                SELECT h.rowid, ROW_NUMBER() OVER (PARTITION BY h.app, h.funnel, h.person ORDER BY h.at DESC, h.rowid DESC) AS newer
                -- NOT INDEXED: read the new rows by rowid; left to itself SQLite walks the whole person index.
                FROM (SELECT DISTINCT app, funnel, person FROM funnel_hits NOT INDEXED WHERE rowid > (SELECT upto FROM funnel_trimmed)) AS touched
                JOIN funnel_hits AS h ON h.app = touched.app AND h.funnel = touched.funnel AND h.person = touched.person)
              WHERE newer > ?)
            """).execute(arguments: [FunnelProjection.maxHitsPerPerson])
        try db.cachedStatement(sql: "UPDATE funnel_trimmed SET upto = coalesce((SELECT max(rowid) FROM funnel_hits), 0)").execute()
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
