import GRDB
import MusterEvents

/// One event folded through the tables: the rows it may read are loaded into a `FieldBook`, the
/// book's own rules decide (the code the in-memory book runs, and its tests hold), and the rows
/// that changed are written back. A push reads a handful of rows per mutation; nothing is read
/// or written whole.
extension FieldTables {
    /// Folds one field event at log `sequence` and time, as `FieldBook.apply(_:sequence:at:)` does in memory.
    static func fold(_ payload: any EventPayload, sequence: UInt64, at time: Int64, _ db: Database) throws {
        switch payload {
        case let pushed as MutationsPushed: try fold(pushed, sequence: sequence, at: time, db)
        case let assigned as ProjectAssigned: try fold(assigned, sequence: sequence, db)
        case let approved as TimeEntryApproved: try fold(approved, sequence: sequence, db)
        case let resolved as ConflictResolved: try fold(resolved, sequence: sequence, db)
        case let configured as CompanyConfigured: try fold(configured, db)
        case let stored as FileStored: try store(stored.digest, in: stored.orgId, db)
        default: return
        }
        try forgetOld(now: time, db)
    }

    static func fold(_ pushed: MutationsPushed, sequence: UInt64, at time: Int64, _ db: Database) throws {
        var rows = Rows(db)
        try rows.company(pushed.orgId)
        for mutation in pushed.mutations {
            try rows.outcome(person: pushed.personId, device: pushed.deviceId, mutation: mutation.mutationId)
            try rows.record(mutation.id)
            if rows.loaded.records[mutation.id] != nil { try rows.conflict(mutation.mutationId) } // a reused id is refused
            if let projectId = mutation.fields["projectId"]?.string { try rows.record(projectId) }
            for name in ["digest", "receipt"] {
                if let digest = mutation.fields[name]?.string { try rows.stored(digest, in: pushed.orgId) }
            }
        }
        try rows.projectsOfEntries()
        var book = rows.loaded
        book.apply(pushed, sequence: sequence, at: time)
        try rows.save(book)
        for mutation in pushed.mutations {
            let key = FieldBook.outcomeKey(pushed.personId, pushed.deviceId, mutation.mutationId)
            guard rows.loaded.outcomes[key] == nil, let kept = book.outcomes[key] else { continue }
            try keep(kept, person: pushed.personId, device: pushed.deviceId, mutation: mutation.mutationId, in: db)
        }
    }

    static func fold(_ assigned: ProjectAssigned, sequence: UInt64, _ db: Database) throws {
        var rows = Rows(db)
        try rows.company(assigned.orgId)
        var book = rows.loaded
        book.apply(assigned, sequence: sequence)
        try rows.save(book)
    }

    static func fold(_ approved: TimeEntryApproved, sequence: UInt64, _ db: Database) throws {
        var rows = Rows(db)
        try rows.company(approved.orgId)
        try rows.record(approved.entryId)
        var book = rows.loaded
        book.apply(approved, sequence: sequence)
        try rows.save(book)
    }

    static func fold(_ resolved: ConflictResolved, sequence: UInt64, _ db: Database) throws {
        var rows = Rows(db)
        try rows.company(resolved.orgId)
        try rows.conflict(resolved.conflictId)
        if let recordId = rows.loaded.conflicts[resolved.conflictId]?.recordId { try rows.record(recordId) }
        try rows.projectsOfEntries()
        var book = rows.loaded
        book.apply(resolved, sequence: sequence)
        try rows.save(book)
    }

    static func fold(_ configured: CompanyConfigured, _ db: Database) throws {
        var rows = Rows(db)
        try rows.company(configured.orgId)
        var book = rows.loaded
        book.apply(configured)
        try rows.save(book)
    }

    /// The rows one event may read, as loaded: a `FieldBook` holding only them.
    struct Rows {
        let db: Database
        private(set) var loaded = FieldBook()
        /// Ids looked up and not found (a batch of new records names each once, and its project often).
        private var absent: Set<String> = []

        init(_ db: Database) { self.db = db }

        mutating func record(_ id: String) throws {
            guard loaded.records[id] == nil, !absent.contains(id) else { return }
            if let record = try FieldTables.record(id, in: db) { loaded.records[id] = record } else { absent.insert(id) }
        }

        /// A company must be loaded before the book changes anything of it: the book makes a new one when it finds none.
        mutating func company(_ orgId: String) throws {
            guard loaded.companies[orgId] == nil, let company = try FieldTables.company(orgId, in: db) else { return }
            loaded.companies[orgId] = company
        }

        mutating func conflict(_ id: String) throws {
            guard loaded.conflicts[id] == nil, let conflict = try FieldTables.conflict(id, in: db) else { return }
            loaded.conflicts[id] = conflict
        }

        mutating func outcome(person: String, device: String, mutation: String) throws {
            let key = FieldBook.outcomeKey(person, device, mutation)
            guard loaded.outcomes[key] == nil, let kept = try FieldTables.outcome(person: person, device: device, mutation: mutation, in: db) else { return }
            loaded.outcomes[key] = kept
        }

        mutating func stored(_ digest: String, in orgId: String) throws {
            guard loaded.storedFiles[orgId]?.contains(digest) != true, try FieldTables.isStored(digest, in: orgId, db) else { return }
            loaded.storedFiles[orgId, default: []].insert(digest)
        }

        /// The projects of the loaded time entries: `review` reads their sites.
        mutating func projectsOfEntries() throws {
            for record in loaded.records.values where record.kind == .timeEntry { try self.record(record.projectId) }
        }

        /// Writes the rows `book` (this set after the event) holds changed.
        func save(_ book: FieldBook) throws {
            for (id, record) in book.records where loaded.records[id] != record {
                try FieldTables.save(record, replacing: loaded.records[id], in: db)
            }
            for (id, conflict) in book.conflicts where loaded.conflicts[id] != conflict { try FieldTables.save(conflict, in: db) }
            for (orgId, company) in book.companies {
                var compared = company
                compared.changes = [] // the book notes each change here; the tables order them by `changed_seq`
                if loaded.companies[orgId] != compared { try FieldTables.save(compared, of: orgId, in: db) }
            }
        }
    }
}
