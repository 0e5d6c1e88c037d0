package import MusterJSON

/// A snapshot whose state writes itself member by member (`JSONObjectEncodable`) is written that
/// way whole: a big in-memory state (the field book, civics) is most of a snapshot's cost, and
/// the snapshot is written every few seconds under load. Loading still decodes it through
/// `Codable`; the state's tests hold the bytes equal to its conformance's.
extension Snapshot: JSONObjectEncodable where State: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.int("checkpoint", checkpoint)
        try object.string("projection", projection)
        try object.string("savedAt", savedAt)
        try object.object("state") { try state.encodeMembers(&$0) }
        try object.int("version", version)
    }
}
