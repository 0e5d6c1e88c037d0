package import MusterEvents

/// A read model: a pure fold of events into state.
///
/// `apply` must decide before it changes anything: when it throws, `state` must be as it was,
/// and the event goes to the DLQ while the projection carries on.
package protocol Projection: Sendable {
    associatedtype State: Codable & Sendable & Equatable
    /// The name used by `muster replay NAME`, the snapshot file and metrics.
    static var name: String { get }
    /// Bump when `apply` changes meaning: the new version rebuilds from sequence 1 on its own consumer.
    static var version: Int { get }
    /// The log subjects it reads (`events.platform.apikey.>`).
    static var filterSubjects: [String] { get }
    static var initialState: State { get }
    static func apply(_ event: RecordedEvent, to state: inout State) throws
    /// Set for a fold whose big state lives in SQLite (`apply` is then not called); nil by default.
    static var tables: ProjectionTables<Self>? { get }
    /// For a fold kept in memory: its ways past decoding, one per event type it sees most
    /// (`StoredReader`); none by default. (A fold that keeps tables lists them in its `tables`.)
    static var storedReaders: [StoredReader<Self>] { get }
}

extension Projection {
    /// The durable consumer of this projection version in one process instance.
    package static func consumerName(instance: String) -> String { "proj_\(name)_v\(version)_\(instance)" }
}

/// An event the projection refuses (it goes to the DLQ with this reason).
package struct ProjectionRejection: Error, Sendable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}
