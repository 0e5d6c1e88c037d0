import Foundation
package import GRDB
package import MusterEvents
package import MusterJSON
import MusterNATS

/// How a projection keeps the part of its state that grows with the log (people, sessions) in
/// SQLite tables instead of memory. Its `State` then holds only what is small and bounded, and
/// the runner applies each delivered batch in one transaction that also writes `State` and the
/// checkpoint: tables, state and cursor always agree, and a kill -9 loses nothing committed.
package struct ProjectionTables<P: Projection>: Sendable {
    /// Creates the tables in a new database (each projection version has a database of its own).
    package var create: @Sendable (Database) throws -> Void
    /// Folds one event into `state` and the tables. Decide before changing `state`; what it
    /// wrote to the tables is rolled back when it throws, and the event goes to the DLQ.
    package var apply: @Sendable (RecordedEvent, inout P.State, Database) throws -> Void
    /// Runs once a batch, after its events and in the same transaction: for work that costs less
    /// done once for many events than once for each (trimming what the events added, say).
    package var endBatch: @Sendable (inout P.State, Database) throws -> Void

    /// The fold's ways past decoding, one per event type it sees most (`StoredReader`).
    package var stored: [StoredReader<P>]

    package init(create: @escaping @Sendable (Database) throws -> Void,
                endBatch: @escaping @Sendable (inout P.State, Database) throws -> Void = { _, _ in },
                stored: [StoredReader<P>] = [],
                apply: @escaping @Sendable (RecordedEvent, inout P.State, Database) throws -> Void) {
        self.create = create
        self.apply = apply
        self.endBatch = endBatch
        self.stored = stored
    }
}

/// How a hot fold reads the few fields it needs of one event type straight from the stored
/// envelope (its `data` members by hand, no envelope strings, no payload built), for events the
/// log validated at append: the `Muster-Validated` stamp of the type as registered now. Anything
/// else (no stamp, another digest, another type) is decoded and validated whole and goes through
/// `apply`, and so does a stamped event `read` cannot take (it throws): a bad one reaches the DLQ
/// with the full decoder's reason. The two ways must fold alike; the fold's tests hold them to it.
///
/// A fold that keeps tables lists its readers in `ProjectionTables.stored`; one kept in memory in
/// `Projection.storedReaders`.
package struct StoredReader<P: Projection>: Sendable {
    package let type: EventType
    /// The `Muster-Validated` stamp of the type as registered now (looked up once, not per event).
    let digest: String?
    let read: @Sendable (_ data: JSONFields) throws -> any Sendable
    /// The database is the batch's transaction for a fold that keeps tables, nil for one in memory;
    /// the sequence is the event's in the stream.
    let apply: @Sendable (_ fact: any Sendable, _ sequence: UInt64, inout P.State, Database?) throws -> Void
    /// The type's subjects around the aggregate id: `events.<app>.<aggregate>.` and `.<event>.v<major>`.
    let subjectHead: [UInt8], subjectTail: [UInt8]

    /// A reader for a fold that keeps tables.
    /// - Parameters:
    ///   - read: what the fold needs of the event, from its envelope's `data` object.
    ///   - apply: folds that into the state and the tables, as `ProjectionTables.apply` would the event.
    package init<Fact: Sendable>(_ type: EventType, read: @escaping @Sendable (_ data: JSONFields) throws -> Fact,
                                apply: @escaping @Sendable (Fact, inout P.State, Database) throws -> Void) {
        self.init(type, read: read) { (fact: Fact, _: UInt64, state: inout P.State, db: Database) in try apply(fact, &state, db) }
    }

    /// A reader for a fold that keeps tables and notes in them the sequence of what changed a row
    /// (what a pull since a cursor reads).
    package init<Fact: Sendable>(_ type: EventType, read: @escaping @Sendable (_ data: JSONFields) throws -> Fact,
                                apply: @escaping @Sendable (Fact, _ sequence: UInt64, inout P.State, Database) throws -> Void) {
        self.init(type, read: read, applying: { (fact: Fact, sequence: UInt64, state: inout P.State, db: Database?) in
            guard let db else { throw ProjectionRejection("\(P.name): a table fold's reader called without its tables") }
            try apply(fact, sequence, &state, db)
        })
    }

    /// A reader for a fold kept in memory: `apply` folds what `read` took as `Projection.apply`
    /// would the event (and, like it, decides before it changes anything).
    package init<Fact: Sendable>(_ type: EventType, read: @escaping @Sendable (_ data: JSONFields) throws -> Fact,
                                apply: @escaping @Sendable (Fact, inout P.State) throws -> Void) {
        self.init(type, read: read, applying: { (fact: Fact, _: UInt64, state: inout P.State, _: Database?) in try apply(fact, &state) })
    }

    private init<Fact: Sendable>(_ type: EventType, read: @escaping @Sendable (_ data: JSONFields) throws -> Fact,
                                 applying apply: @escaping @Sendable (Fact, UInt64, inout P.State, Database?) throws -> Void) {
        self.type = type
        digest = type.validationDigest
        let pattern = type.subject(aggregateID: "*")
        subjectHead = Array(pattern.utf8.prefix { $0 != UInt8(ascii: "*") })
        subjectTail = Array(pattern.utf8.drop { $0 != UInt8(ascii: "*") }.dropFirst())
        self.read = read
        self.apply = { fact, sequence, state, db in
            guard let fact = fact as? Fact else { throw ProjectionRejection("\(P.name): a stored read of another kind") }
            try apply(fact, sequence, &state, db)
        }
    }

    /// Whether `subject` names an event of the reader's type, one id token between head and
    /// tail (compared in place: this runs for every message of the fold).
    func reads(_ subject: String) -> Bool {
        var subject = subject
        return subject.withUTF8 { bytes in
            guard bytes.count > subjectHead.count + subjectTail.count,
                  bytes.starts(with: subjectHead), bytes.reversed().starts(with: subjectTail.reversed()) else { return false }
            return !bytes[subjectHead.count..<(bytes.count - subjectTail.count)].contains(UInt8(ascii: "."))
        }
    }

    /// What `read` took of one message, and the trace it carries.
    typealias Read = (fact: any Sendable, traceparent: String?)

    /// Which of a fold's `readers` takes a message stamped `stamp` (the stamp names the type as
    /// registered now); nil for an unstamped message or a type the fold reads decoded.
    static func index(in readers: [StoredReader], stamp: String?) -> Int? {
        guard let stamp else { return nil }
        return readers.firstIndex { $0.digest == stamp }
    }

    /// What the fold needs of a stamped message of the reader's type, and its trace; nil sends it
    /// the decoder's way: another type under the same stamp, or bytes the reader cannot take.
    func read(_ message: JetStreamMessage) -> Read? {
        read(subject: message.subject, payload: message.payload)
    }

    func read(subject: String, payload: Data) -> Read? {
        guard reads(subject) else { return nil }
        let read = try? payload.withUnsafeBytes { raw in
            try JSONBytesDecoder().withFields(of: raw) { envelope -> Read? in
                guard let data = try envelope.object("data") else { return nil }
                return (try self.read(data), try envelope.string("traceparent"))
            }
        }
        return read ?? nil
    }
}

extension Projection {
    /// Folds kept whole in memory (and in one snapshot file) have none.
    package static var tables: ProjectionTables<Self>? { nil }
    /// Most folds kept in memory read every event decoded.
    package static var storedReaders: [StoredReader<Self>] { [] }
}

/// A projection whose big state lives in SQLite: it declares its tables, and the runner folds
/// through them (its `apply(_:to:)` is never called).
package protocol TableProjection: Projection {
    static var storage: ProjectionTables<Self> { get }
}

extension TableProjection {
    package static var tables: ProjectionTables<Self>? { storage }

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        throw ProjectionRejection("\(name) folds into its tables, not in memory")
    }
}
