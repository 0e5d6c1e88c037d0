package import MusterJSON

/// A snapshot is written member by member: its own keys in order, `checkpoint` first (whoever
/// only needs the checkpoint reads the file's head), then the state. A state that writes itself
/// member by member (`JSONObjectEncodable`: the field book, civics) is written that way, the
/// others through `Codable`; `SnapshotStore.save` leaves their keys in the order they come. A
/// big in-memory state is most of a snapshot's cost, and a busy fold writes one every few
/// seconds. Loading still decodes through `Codable`; those states' tests hold the bytes equal to
/// their conformance's.
extension Snapshot: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.int("checkpoint", checkpoint)
        try object.string("projection", projection)
        try object.string("savedAt", savedAt)
        if let writesItself = state as? any JSONObjectEncodable {
            try object.object("state") { try writesItself.encodeMembers(&$0) }
        } else {
            try object.encode("state", state)
        }
        try object.int("version", version)
    }
}
