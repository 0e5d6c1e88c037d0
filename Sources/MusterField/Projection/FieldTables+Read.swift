import Foundation
import GRDB
import MusterJSON
import MusterLog

/// What the field routes read of the tables (through `FieldSync.tables`, in one read transaction).
extension FieldTables {
    /// `FieldBook.page` over the tables: the records `personId` sees that changed after `since`,
    /// in log order, about `limit` of them (a page ends between two log sequences); deletions
    /// included except in a full resync. Reads rows only until the page is full.
    static func page(personId: String, orgId: String, role: String, since: PullCursor, limit: Int, checkpoint: UInt64,
                     in db: Database) throws -> PullPage {
        let company = try company(orgId, in: db) ?? FieldBook.Company()
        let resetAt = max(company.purgedThrough, company.resets[personId] ?? 0)
        var (from, resync, full) = (since.position, since.resyncFrom, false)
        if since.position == 0 || (since.resyncFrom ?? since.position) < resetAt {
            (from, resync, full) = (0, checkpoint, true)
        }
        var book = FieldBook()
        book.companies[orgId] = company
        var records: [FieldBook.Record] = []
        var last: UInt64?
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT changed_seq, body FROM records WHERE org_id = ? AND changed_seq > ? ORDER BY changed_seq"),
                                       arguments: [orgId, Int64(clamping: from)])
        while let row = try rows.next() {
            let sequence = UInt64(max(0, row[0] as Int64))
            // A page ends between two sequences: one push changes many records at one sequence.
            if records.count >= limit, let last, sequence != last {
                return PullPage(records: records, cursor: PullCursor(position: last, resyncFrom: resync), more: true, full: full)
            }
            let record = try decode(FieldBook.Record.self, row, 1)
            guard resync == nil || !record.deleted, book.sees(record, personId: personId, orgId: orgId, role: role) else { continue }
            records.append(record)
            last = sequence
        }
        return PullPage(records: records, cursor: PullCursor(position: max(from, checkpoint)), more: false, full: full)
    }

    /// A company's conflicts, in no order.
    static func conflicts(of orgId: String, in db: Database) throws -> [FieldBook.Conflict] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT body FROM conflicts WHERE org_id = ?"), arguments: [orgId])
        var conflicts: [FieldBook.Conflict] = []
        while let row = try rows.next() { conflicts.append(try decode(FieldBook.Conflict.self, row, 0)) }
        return conflicts
    }

    /// A company's time entries that are not deleted, in no order.
    static func timeEntries(of orgId: String, in db: Database) throws -> [FieldBook.Record] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT body FROM records WHERE org_id = ? AND kind = ? AND deleted = 0"),
                                       arguments: [orgId, EntityKind.timeEntry.rawValue])
        var records: [FieldBook.Record] = []
        while let row = try rows.next() { records.append(try decode(FieldBook.Record.self, row, 0)) }
        return records
    }

    /// Whether `person` sees a record that names the photo or receipt `digest` uploaded in their company.
    static func canRead(_ digest: String, _ person: FieldPerson, in db: Database) throws -> Bool {
        guard try isStored(digest, in: person.orgId, db) else { return false }
        let ids = try String.fetchAll(db.cachedStatement(sql: "SELECT record_id FROM files WHERE digest = ?"), arguments: [digest])
        var book = FieldBook()
        book.companies[person.orgId] = try company(person.orgId, in: db)
        return try ids.contains { id in
            guard let record = try record(id, in: db), !record.deleted else { return false }
            return book.sees(record, personId: person.personId, orgId: person.orgId, role: person.role)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ row: Row, _ column: Int) throws -> T {
        try row.withUnsafeData(atIndex: column) { try JSONBytesDecoder().decode(type, from: $0 ?? Data()) }
    }
}
