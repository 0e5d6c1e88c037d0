import GRDB
import MusterLog
import Testing

/// `Statement.run` binds what GRDB's `execute(arguments:)` would, and fails as it does.
@Suite("Statement.run binds straight through SQLite")
struct StatementRunTests {
    func database() throws -> DatabaseQueue {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY, text TEXT NOT NULL, maybe TEXT, n INTEGER, flag INTEGER)")
        }
        return db
    }

    @Test func eachValueLandsAsExecuteWouldStoreIt() throws {
        let db = try database()
        try db.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
            try insert.run("a", "", String?.none, Int64.min, true)
            try insert.run("b", "é, 🐕 and \u{0}", String?.some("x"), Int.max, false)
            try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: ["c", "", nil, Int64.min, true]) // the same as "a", through GRDB
        }
        let rows = try db.read { db in
            try Row.fetchAll(db, sql: "SELECT k, text, maybe, n, flag, typeof(text), typeof(maybe), length(CAST(text AS BLOB)) FROM t ORDER BY k")
        }
        #expect(rows.map { $0[1] as String } == ["", "é, 🐕 and ", ""]) // the empty string is text, not NULL
        // Every byte is stored, a NUL too (GRDB binds a C string, which ends there).
        #expect(rows[1][7] as Int == "é, 🐕 and \u{0}".utf8.count)
        #expect(rows.map { $0[2] as String? } == [nil, "x", nil])
        #expect(rows.map { $0[3] as Int64 } == [Int64.min, Int64(Int.max), Int64.min])
        #expect(rows.map { $0[4] as Bool } == [true, false, true])
        #expect(rows.map { $0[5] as String } == ["text", "text", "text"])
        #expect(rows[0][6] as String == rows[2][6] as String)
    }

    @Test func aFailedRunThrowsAndLeavesTheStatementUsable() throws {
        let db = try database()
        try db.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t (k, text) VALUES (?, ?)")
            try insert.run("a", "first")
            #expect(throws: DatabaseError.self) { try insert.run("a", "again") } // the key is taken
            #expect(throws: DatabaseError.self) { try insert.run("b", String?.none) } // NOT NULL
            try insert.run("b", "second")
        }
        #expect(try db.read { db in try String.fetchAll(db, sql: "SELECT text FROM t ORDER BY k") } == ["first", "second"])
    }
}
