import MusterEvents
public import MusterLog

/// The field app's records, folded from every push and every manager's decision into SQLite
/// tables (`FieldTables`): each event reads the rows it needs, the book's rules (`FieldBook`)
/// decide, and the rows that changed are written back, in each batch's one transaction. Nothing
/// is kept whole in memory nor written whole as a snapshot: the cost of a push does not grow
/// with the companies' history.
public enum FieldProjection: TableProjection {
    /// Nothing of the field book is small enough to keep in the fold's one state row.
    public struct State: Codable, Sendable, Equatable {}

    public static let name = "field"
    /// 4: tables instead of one `FieldBook` in memory with snapshots.
    public static let version = 4
    public static let filterSubjects = ["events.field.>"]
    public static let initialState = State()

    /// Pushes, the bulk of the field log, validated at append are read straight from their stored
    /// bytes (the hand reader decoding uses too, without the envelope's strings); the rest is decoded.
    public static let storage = ProjectionTables<Self>(create: FieldTables.create, stored: [
        StoredReader(MutationsPushed.eventType, read: MutationsPushed.init(storedFields:)) { pushed, sequence, time, _, db in
            try FieldTables.fold(pushed, sequence: sequence, at: time, db)
            try FieldTables.forgetOld(now: time, db)
        },
    ]) { event, _, db in
        guard let time = Timestamp.millis(event.time) else { throw ProjectionRejection("event time \(event.time.prefix(40)) is no timestamp") }
        try FieldTables.fold(event.payload, sequence: event.sequence, at: time, db)
    }
}
