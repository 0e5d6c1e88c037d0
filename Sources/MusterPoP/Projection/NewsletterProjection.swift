package import GRDB
import MusterEvents
package import MusterLog

/// Newsletter subscribers per organisation, in SQLite (they grow with the app's users): one row
/// per subscription, read by the signup's dedup check, the unsubscribe link and the organisers'
/// CSV export (streamed from a cursor, never all in memory). An unsubscribed row keeps no box.
package enum NewsletterProjection: TableProjection {
    package struct State: Codable, Sendable, Equatable {
        /// Live subscribers per organisation.
        package var live: [String: Int] = [:]
    }

    package static let name = "newsletter"
    /// 2: subscriptions are confirmed (double opt-in).
    package static let version = 2
    package static let filterSubjects = ["events.pop.subscriber.>"]
    package static let initialState = State()

    package static let storage = ProjectionTables<Self>(create: NewsletterTables.create) { event, state, db in
        switch event.payload {
        case let subscribed as NewsletterSubscribed:
            if try NewsletterTables.latest(emailKey: subscribed.emailKey, in: db)?.isLive == true {
                throw ProjectionRejection("a live subscription of that address already exists")
            }
            try NewsletterTables.insert(subscribed, sequence: event.sequence, in: db)
            state.live[subscribed.org, default: 0] += 1
        case let confirmed as NewsletterConfirmed:
            _ = try NewsletterTables.confirm(confirmed.subscriberId, sequence: event.sequence, in: db)
        case let unsubscribed as NewsletterUnsubscribed:
            guard try NewsletterTables.unsubscribe(unsubscribed.subscriberId, sequence: event.sequence, in: db) else { return }
            state.live[unsubscribed.org, default: 1] -= 1
        default:
            return
        }
    }
}

/// The newsletter fold's table and its reads.
package enum NewsletterTables {
    package struct Subscriber: Sendable, Equatable {
        package var subscriberId: String
        package var emailKey: String
        package var org: String
        package var signupId: String
        package var sealed: String?
        package var signupDate: String
        package var consentAt: String
        /// The subscribed event's sequence: the export's order and cursor.
        package var sequence: UInt64
        package var unsubscribedSequence: UInt64?
        /// When the address proved it wants the newsletter (the link in the confirmation mail).
        package var confirmedSequence: UInt64?

        package var isLive: Bool { unsubscribedSequence == nil }
        package var isConfirmed: Bool { confirmedSequence != nil }
        /// The aggregate's last event, which the next append expects.
        package var lastSequence: UInt64 { max(sequence, unsubscribedSequence ?? 0, confirmedSequence ?? 0) }
    }

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE subscribers (
              subscriber_id TEXT PRIMARY KEY,
              email_key TEXT NOT NULL,
              org TEXT NOT NULL,
              signup_id TEXT NOT NULL UNIQUE,
              sealed TEXT,
              signup_date TEXT NOT NULL,
              consent_at TEXT NOT NULL,
              seq INTEGER NOT NULL,
              unsubscribed_seq INTEGER,
              confirmed_seq INTEGER);
            CREATE INDEX subscribers_by_org ON subscribers (org, seq);
            CREATE INDEX subscribers_by_key ON subscribers (email_key, seq);
            """)
    }

    static func insert(_ s: NewsletterSubscribed, sequence: UInt64, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO subscribers (subscriber_id, email_key, org, signup_id, sealed, signup_date, consent_at, seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [s.subscriberId, s.emailKey, s.org, s.signupId, s.sealed, s.signupDate, s.consentAt, Int64(sequence)])
    }

    /// Ends a live subscription and drops its box; false when there was none to end.
    static func unsubscribe(_ subscriberId: String, sequence: UInt64, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            UPDATE subscribers SET unsubscribed_seq = ?, sealed = NULL WHERE subscriber_id = ? AND unsubscribed_seq IS NULL
            """).execute(arguments: [Int64(sequence), subscriberId])
        return db.changesCount > 0
    }

    /// Marks a live subscription confirmed (double opt-in); false when there was none to confirm.
    static func confirm(_ subscriberId: String, sequence: UInt64, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            UPDATE subscribers SET confirmed_seq = ? WHERE subscriber_id = ? AND unsubscribed_seq IS NULL AND confirmed_seq IS NULL
            """).execute(arguments: [Int64(sequence), subscriberId])
        return db.changesCount > 0
    }

    static let columns = "subscriber_id, email_key, org, signup_id, sealed, signup_date, consent_at, seq, unsubscribed_seq, confirmed_seq"

    static func subscriber(_ row: Row) -> Subscriber {
        Subscriber(subscriberId: row[0], emailKey: row[1], org: row[2], signupId: row[3], sealed: row[4], signupDate: row[5],
                   consentAt: row[6], sequence: UInt64(max(0, row[7] as Int64)), unsubscribedSequence: (row[8] as Int64?).map { UInt64(max(0, $0)) },
                   confirmedSequence: (row[9] as Int64?).map { UInt64(max(0, $0)) })
    }

    /// The address's latest subscription (live or ended).
    package static func latest(emailKey: String, in db: Database) throws -> Subscriber? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM subscribers WHERE email_key = ? ORDER BY seq DESC LIMIT 1"),
                         arguments: [emailKey]).map(subscriber)
    }

    package static func bySignup(_ signupId: String, in db: Database) throws -> Subscriber? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM subscribers WHERE signup_id = ?"), arguments: [signupId]).map(subscriber)
    }

    package static func bySubscriber(_ subscriberId: String, in db: Database) throws -> Subscriber? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM subscribers WHERE subscriber_id = ?"), arguments: [subscriberId]).map(subscriber)
    }

    /// Up to `limit` live subscribers of `org` after `cursor`, in signup order: one page of the export.
    package static func livePage(org: String, after cursor: UInt64, limit: Int, in db: Database) throws -> [Subscriber] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(columns) FROM subscribers WHERE org = ? AND seq > ? AND unsubscribed_seq IS NULL ORDER BY seq LIMIT ?
            """), arguments: [org, Int64(cursor), limit]).map(subscriber)
    }
}
