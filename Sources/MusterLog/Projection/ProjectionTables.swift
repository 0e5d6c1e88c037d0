public import GRDB
public import MusterEvents

/// How a projection keeps the part of its state that grows with the log (people, sessions) in
/// SQLite tables instead of memory. Its `State` then holds only what is small and bounded, and
/// the runner applies each delivered batch in one transaction that also writes `State` and the
/// checkpoint: tables, state and cursor always agree, and a kill -9 loses nothing committed.
public struct ProjectionTables<P: Projection>: Sendable {
    /// Creates the tables in a new database (each projection version has a database of its own).
    public var create: @Sendable (Database) throws -> Void
    /// Folds one event into `state` and the tables. Decide before changing `state`; what it
    /// wrote to the tables is rolled back when it throws, and the event goes to the DLQ.
    public var apply: @Sendable (RecordedEvent, inout P.State, Database) throws -> Void
    /// Runs once a batch, after its events and in the same transaction: for work that costs less
    /// done once for many events than once for each (trimming what the events added, say).
    public var endBatch: @Sendable (inout P.State, Database) throws -> Void

    public init(create: @escaping @Sendable (Database) throws -> Void,
                endBatch: @escaping @Sendable (inout P.State, Database) throws -> Void = { _, _ in },
                apply: @escaping @Sendable (RecordedEvent, inout P.State, Database) throws -> Void) {
        self.create = create
        self.apply = apply
        self.endBatch = endBatch
    }
}

extension Projection {
    /// Folds kept whole in memory (and in one snapshot file) have none.
    public static var tables: ProjectionTables<Self>? { nil }
}

/// A projection whose big state lives in SQLite: it declares its tables, and the runner folds
/// through them (its `apply(_:to:)` is never called).
public protocol TableProjection: Projection {
    static var storage: ProjectionTables<Self> { get }
}

extension TableProjection {
    public static var tables: ProjectionTables<Self>? { storage }

    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        throw ProjectionRejection("\(name) folds into its tables, not in memory")
    }
}
