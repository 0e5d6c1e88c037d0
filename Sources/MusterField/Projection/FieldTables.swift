import Foundation
import GRDB
import MusterEvents
import MusterJSON
import MusterLog

/// The field book's tables: one row per record, kept outcome, conflict, company, file a record
/// names and file a company uploaded. A row holds the columns the fold and the reads look rows up
/// by, and the whole value as JSON (`body`), in the same shape `FieldBook` holds it in memory.
///
/// Records remember the log sequence of their latest change (`changed_seq`), so a pull since a
/// cursor is a range of one index; a record changed again simply moves in it.
public enum FieldTables {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE records (
              id TEXT PRIMARY KEY,
              org_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              deleted INTEGER NOT NULL,
              deleted_at INTEGER,
              changed_seq INTEGER NOT NULL,
              body BLOB NOT NULL) WITHOUT ROWID;
            CREATE INDEX records_by_change ON records (org_id, changed_seq);
            CREATE TABLE outcomes (
              person_id TEXT NOT NULL,
              device_id TEXT NOT NULL,
              mutation_id TEXT NOT NULL,
              at INTEGER NOT NULL,
              body BLOB NOT NULL,
              PRIMARY KEY (person_id, device_id, mutation_id)) WITHOUT ROWID;
            CREATE TABLE conflicts (
              id TEXT PRIMARY KEY,
              org_id TEXT NOT NULL,
              body BLOB NOT NULL) WITHOUT ROWID;
            CREATE INDEX conflicts_by_org ON conflicts (org_id);
            CREATE TABLE companies (
              org_id TEXT PRIMARY KEY,
              last_purge INTEGER NOT NULL,
              tombstone_days INTEGER NOT NULL,
              body BLOB NOT NULL) WITHOUT ROWID;
            CREATE TABLE files (
              digest TEXT NOT NULL,
              record_id TEXT NOT NULL,
              PRIMARY KEY (digest, record_id)) WITHOUT ROWID;
            CREATE TABLE stored_files (
              org_id TEXT NOT NULL,
              digest TEXT NOT NULL,
              PRIMARY KEY (org_id, digest)) WITHOUT ROWID;
            """)
    }

    // MARK: Rows by key

    static func record(_ id: String, in db: Database) throws -> FieldBook.Record? {
        try db.cachedStatement(sql: "SELECT body FROM records WHERE id = ?").first(id) { try JSONBytesDecoder().decode(FieldBook.Record.self, from: $0) }
    }

    static func company(_ orgId: String, in db: Database) throws -> FieldBook.Company? {
        try db.cachedStatement(sql: "SELECT body FROM companies WHERE org_id = ?").first(orgId) {
            try JSONBytesDecoder().decode(FieldBook.Company.self, from: $0)
        }
    }

    static func conflict(_ id: String, in db: Database) throws -> FieldBook.Conflict? {
        try db.cachedStatement(sql: "SELECT body FROM conflicts WHERE id = ?").first(id) { try JSONBytesDecoder().decode(FieldBook.Conflict.self, from: $0) }
    }

    static func outcome(person: String, device: String, mutation: String, in db: Database) throws -> FieldBook.KeptOutcome? {
        try db.cachedStatement(sql: "SELECT body FROM outcomes WHERE person_id = ? AND device_id = ? AND mutation_id = ?")
            .first(person, device, mutation) { try JSONBytesDecoder().decode(FieldBook.KeptOutcome.self, from: $0) }
    }

    static func isStored(_ digest: String, in orgId: String, _ db: Database) throws -> Bool {
        try db.cachedStatement(sql: "SELECT 1 FROM stored_files WHERE org_id = ? AND digest = ?").first(orgId, digest) { _ in true } ?? false
    }

    // MARK: Writing rows

    static func save(_ record: FieldBook.Record, replacing old: FieldBook.Record?, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO records (id, org_id, kind, deleted, deleted_at, changed_seq, body) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET deleted = excluded.deleted, deleted_at = excluded.deleted_at,
              changed_seq = excluded.changed_seq, body = excluded.body
            """).run(record.id, record.orgId, record.kind.rawValue, record.deleted, record.deletedAt, Int64(clamping: record.sequence),
                     try JSONBytesEncoder().encode(record))
        let (before, after) = (old?.files ?? [], record.files)
        guard before != after else { return }
        for digest in before where !after.contains(digest) { try unfile(digest, record.id, db) }
        for digest in after where !before.contains(digest) {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO files (digest, record_id) VALUES (?, ?)").run(digest, record.id)
        }
    }

    static func unfile(_ digest: String, _ recordId: String, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM files WHERE digest = ? AND record_id = ?").run(digest, recordId)
    }

    static func save(_ company: FieldBook.Company, of orgId: String, in db: Database) throws {
        var company = company
        company.changes = [] // the order of changes is the records' `changed_seq`, not the company's row
        try db.cachedStatement(sql: """
            INSERT INTO companies (org_id, last_purge, tombstone_days, body) VALUES (?, ?, ?, ?)
            ON CONFLICT (org_id) DO UPDATE SET last_purge = excluded.last_purge, tombstone_days = excluded.tombstone_days, body = excluded.body
            """).run(orgId, company.lastPurge, company.settings.tombstoneDays, try JSONBytesEncoder().encode(company))
    }

    static func save(_ conflict: FieldBook.Conflict, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO conflicts (id, org_id, body) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body
            """).run(conflict.id, conflict.orgId, try JSONBytesEncoder().encode(conflict))
    }

    static func keep(_ kept: FieldBook.KeptOutcome, person: String, device: String, mutation: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO outcomes (person_id, device_id, mutation_id, at, body) VALUES (?, ?, ?, ?, ?)")
            .run(person, device, mutation, kept.at, try JSONBytesEncoder().encode(kept))
    }

    static func store(_ digest: String, in orgId: String, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO stored_files (org_id, digest) VALUES (?, ?)").run(orgId, digest)
    }
}
