import GRDB
import MusterEvents
import MusterLog

extension FieldTables {
    /// `FieldBook.forgetOld` over the tables: once a day of log time per company, its tombstones
    /// older than its `tombstoneDays` go (a device whose cursor is older resyncs from scratch), and
    /// with them the kept outcomes older than every company's horizon. Folded on every event, so
    /// the daily question is one look at the companies' `last_purge`.
    static func forgetOld(now: Int64, _ db: Database) throws {
        let day: Int64 = 86_400_000
        let due = try String.fetchAll(db.cachedStatement(sql: "SELECT org_id FROM companies WHERE last_purge <= ? ORDER BY org_id"),
                                      arguments: [now - day])
        guard !due.isEmpty else { return }
        for orgId in due {
            guard var company = try company(orgId, in: db) else { continue }
            company.lastPurge = now
            let horizon = now - Int64(company.settings.tombstoneDays) * day
            let gone = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT changed_seq, body FROM records WHERE org_id = ? AND deleted = 1 AND deleted_at < ? ORDER BY changed_seq
                """), arguments: [orgId, horizon])
            for row in gone {
                let record = try decode(FieldBook.Record.self, row, 1)
                try db.cachedStatement(sql: "DELETE FROM records WHERE id = ?").run(record.id)
                for digest in record.files { try unfile(digest, record.id, db) }
                company.purgedThrough = max(company.purgedThrough, UInt64(max(0, row[0] as Int64)))
            }
            try save(company, of: orgId, in: db)
        }
        // Outcomes are looked at with the tombstones (at most daily), not on every event: there are many.
        let oldest = try Int64.fetchOne(db, sql: "SELECT min(? - tombstone_days * ?) FROM companies", arguments: [now, day]) ?? now
        try db.execute(sql: "DELETE FROM outcomes WHERE at < ?", arguments: [oldest])
    }
}
