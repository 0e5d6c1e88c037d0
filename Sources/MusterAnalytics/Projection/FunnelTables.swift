package import GRDB
import MusterLog

/// The funnel fold's table: one row per step a person reached, read back per person in time order.
package enum FunnelTables {
    static func create(_ db: Database) throws {
        // One B-tree, keyed as the reports and the trim read it: a rowid table with an index on the
        // person paid a second insert for every hit.
        try db.execute(sql: """
            CREATE TABLE funnel_hits (
              app TEXT NOT NULL,
              funnel TEXT NOT NULL,
              person TEXT NOT NULL,
              at INTEGER NOT NULL,
              -- the event's stream sequence: the later arrival among hits of the same time
              seq INTEGER NOT NULL,
              step TEXT NOT NULL,
              segment TEXT NOT NULL,
              app_version TEXT NOT NULL,
              PRIMARY KEY (app, funnel, person, at, seq)) WITHOUT ROWID;
            """)
    }

    /// Stores the hit; `trim` keeps the person within `maxHitsPerPerson` when the batch ends.
    static func insert(_ h: FunnelProjection.PersonHit, sequence: UInt64, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO funnel_hits (app, funnel, person, at, seq, step, segment, app_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).run(h.app, h.funnel, h.person, h.hit.at, Int64(sequence), h.hit.step, h.hit.segment, h.hit.appVersion)
    }

    /// Drops the person's oldest hits beyond `maxHitsPerPerson` (the sequence breaks ties in
    /// arrival order): once a batch for each person it touched, not after every insert.
    static func trim(_ person: FunnelProjection.PersonKey, in db: Database) throws {
        try db.cachedStatement(sql: """
            DELETE FROM funnel_hits WHERE app = ?1 AND funnel = ?2 AND person = ?3 AND (at, seq) <= (
              SELECT at, seq FROM funnel_hits WHERE app = ?1 AND funnel = ?2 AND person = ?3
              ORDER BY at DESC, seq DESC LIMIT 1 OFFSET ?4)
            """).run(person.app, person.funnel, person.person, FunnelProjection.maxHitsPerPerson)
    }

    /// The report of one funnel, counted person by person as the rows come (never all in memory).
    package static func report(_ query: FunnelQuery, app: String, in db: Database) throws -> FunnelReport {
        var count = FunnelCount(query: query)
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT person, at, step, segment, app_version FROM funnel_hits
            WHERE app = ? AND funnel = ? ORDER BY person, at, seq
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
    package static func people(app: String, funnel: String, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT person) FROM funnel_hits WHERE app = ? AND funnel = ?",
                         arguments: [app, funnel]) ?? 0
    }
}
