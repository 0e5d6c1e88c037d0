package import GRDB
import MusterLog

/// The sync fold's tables, the merges its upserts make, and what a pull reads back.
package enum PoPTables {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE installs (
              install_id TEXT PRIMARY KEY,
              person_id TEXT,
              view_changed INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX installs_by_person ON installs (person_id) WHERE person_id IS NOT NULL;
            CREATE TABLE cards (
              install_id TEXT NOT NULL,
              deck TEXT NOT NULL,
              question_id INTEGER NOT NULL,
              views INTEGER NOT NULL,
              last_viewed INTEGER,
              known INTEGER NOT NULL,
              known_at INTEGER NOT NULL,
              changed_seq INTEGER NOT NULL,
              PRIMARY KEY (install_id, deck, question_id)) WITHOUT ROWID;
            CREATE TABLE bookmarks (
              install_id TEXT NOT NULL,
              bookmark_id TEXT NOT NULL,
              document_id TEXT,
              section_id TEXT,
              created_at INTEGER,
              removed INTEGER NOT NULL DEFAULT 0,
              changed_seq INTEGER NOT NULL,
              PRIMARY KEY (install_id, bookmark_id)) WITHOUT ROWID;
            """)
    }

    /// True when the install is new.
    static func addInstall(_ installId: String, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO installs (install_id) VALUES (?)").run(installId)
        return db.changesCount > 0
    }

    /// One install's change, merged as `LearnerProgress.apply` merges one device's: views the
    /// largest running count, `lastViewed` the latest, `isMarkedKnown` the later write (a tie: true),
    /// a bookmark id's smallest contents, a remove that stays whatever comes after it.
    /// (SQLite evaluates every `SET` expression on the row as it was.)
    static func apply(_ change: ProgressChange, install: String, sequence: UInt64, in db: Database) throws {
        try apply(change, install: install, sequence: sequence, with: Upserts(db))
    }

    static func apply(_ change: ProgressChange, install: String, sequence: UInt64, with upserts: Upserts) throws {
        let seq = Int64(sequence)
        switch change {
        case .card(let c):
            try upserts.card.run(install, c.deck, c.questionId, c.timesViewed, c.lastViewed, c.isMarkedKnown, c.changedAt, seq)
        case .bookmarkAdded(let b):
            try upserts.bookmark.run(install, b.bookmarkId, b.documentId, b.sectionId, b.createdAt, seq)
        case .bookmarksRemoved(let r):
            for id in r.bookmarkIds { try upserts.unbookmark.run(install, id, seq) }
        }
    }

    /// The three upserts, looked up once for all of an event's changes: finding a cached statement
    /// by its SQL text hashes the text, which cost more per change than the upsert itself.
    struct Upserts {
        let card: Statement
        let bookmark: Statement
        let unbookmark: Statement

        init(_ db: Database) throws {
            card = try db.cachedStatement(sql: Self.cardSQL)
            bookmark = try db.cachedStatement(sql: Self.bookmarkSQL)
            unbookmark = try db.cachedStatement(sql: Self.unbookmarkSQL)
        }

        static let cardSQL = """
            INSERT INTO cards (install_id, deck, question_id, views, last_viewed, known, known_at, changed_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (install_id, deck, question_id) DO UPDATE SET
              views = max(views, excluded.views),
              last_viewed = CASE WHEN last_viewed IS NULL THEN excluded.last_viewed
                                 WHEN excluded.last_viewed IS NULL THEN last_viewed
                                 ELSE max(last_viewed, excluded.last_viewed) END,
              known = CASE WHEN excluded.known_at > known_at THEN excluded.known
                           WHEN excluded.known_at = known_at THEN max(known, excluded.known)
                           ELSE known END,
              known_at = max(known_at, excluded.known_at),
              changed_seq = excluded.changed_seq
            """
        private static let smaller = "document_id IS NULL OR (excluded.document_id, coalesce(excluded.section_id, ''), excluded.created_at) < (document_id, coalesce(section_id, ''), created_at)"
        static let bookmarkSQL = """
            INSERT INTO bookmarks (install_id, bookmark_id, document_id, section_id, created_at, changed_seq) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (install_id, bookmark_id) DO UPDATE SET
              document_id = CASE WHEN \(smaller) THEN excluded.document_id ELSE document_id END,
              section_id = CASE WHEN \(smaller) THEN excluded.section_id ELSE section_id END,
              created_at = CASE WHEN \(smaller) THEN excluded.created_at ELSE created_at END,
              changed_seq = excluded.changed_seq
            """
        static let unbookmarkSQL = """
            INSERT INTO bookmarks (install_id, bookmark_id, removed, changed_seq) VALUES (?, ?, 1, ?)
            ON CONFLICT (install_id, bookmark_id) DO UPDATE SET removed = 1, changed_seq = excluded.changed_seq
            """
    }

    /// Links the install to `personId` (nil: unlinks). Its view changes, and so do the views of
    /// the installs of the person it leaves and of the person it joins.
    static func link(_ installId: String, to personId: String?, sequence: UInt64, in db: Database) throws {
        let previous = try String?.fetchOne(db.cachedStatement(sql: "SELECT person_id FROM installs WHERE install_id = ?"), arguments: [installId]) ?? nil
        guard previous != personId else { return }
        try db.cachedStatement(sql: "UPDATE installs SET person_id = ?, view_changed = ? WHERE install_id = ?")
            .execute(arguments: [personId, Int64(sequence), installId])
        for person in [previous, personId].compactMap({ $0 }) {
            try db.cachedStatement(sql: "UPDATE installs SET view_changed = ? WHERE person_id = ?").execute(arguments: [Int64(sequence), person])
        }
    }

    static func installs(of personId: String, in db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT install_id FROM installs WHERE person_id = ? ORDER BY install_id"), arguments: [personId])
    }

    /// What an install sees: its own progress, or, linked, the join of its person's installs (each
    /// install is one device); with the sequence that last changed each card and bookmark, and when
    /// the view as a whole last changed. Nil for an install never seen.
    package struct View: Sendable {
        package var progress = LearnerProgress()
        package var cards: [LearnerProgress.CardKey: UInt64] = [:]
        package var bookmarks: [String: UInt64] = [:]
        package var reset: UInt64 = 0
        package var personId: String?
    }

    package static func view(of installId: String, in db: Database) throws -> View? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT person_id, view_changed FROM installs WHERE install_id = ?"),
                                         arguments: [installId]) else { return nil }
        let personId: String? = row[0]
        var view = View(reset: UInt64(max(0, row[1] as Int64)), personId: personId)
        for member in try personId.map({ try installs(of: $0, in: db) }) ?? [installId] {
            var own = LearnerProgress()
            for card in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT deck, question_id, views, last_viewed, known, known_at, changed_seq FROM cards WHERE install_id = ?
                """), arguments: [member]) {
                let key = LearnerProgress.CardKey(deck: card[0], questionId: card[1])
                var merged = LearnerProgress.Card()
                merged.views[member] = card[2]
                merged.lastViewed = card[3]
                merged.isMarkedKnown = card[4]
                merged.knownStamp = LearnerProgress.Stamp(at: card[5], device: member)
                own.cards[key] = merged
                view.cards[key] = max(view.cards[key] ?? 0, UInt64(max(0, card[6] as Int64)))
            }
            for bookmark in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT bookmark_id, document_id, section_id, created_at, removed, changed_seq FROM bookmarks WHERE install_id = ?
                """), arguments: [member]) {
                let id: String = bookmark[0]
                if let document: String = bookmark[1], let createdAt: Int64 = bookmark[3] {
                    own.added[id] = LearnerProgress.Bookmark(documentId: document, sectionId: bookmark[2], createdAt: createdAt)
                }
                if bookmark[4] as Bool { own.removed.insert(id) }
                view.bookmarks[id] = max(view.bookmarks[id] ?? 0, UInt64(max(0, bookmark[5] as Int64)))
            }
            view.progress = view.progress.merged(with: own)
        }
        return view
    }

    package static func personId(of installId: String, in db: Database) throws -> String? {
        try String?.fetchOne(db.cachedStatement(sql: "SELECT person_id FROM installs WHERE install_id = ?"), arguments: [installId]) ?? nil
    }
}
