package import MusterJSON

// The notifications fold's snapshot grows with the messages waiting (two reminders for every walk
// booked ahead), and through Codable writing it was a quarter of a rebuild: the waiting messages
// are written member by member, as their conformances write them (NotificationsSnapshotTests
// holds the bytes equal). Preferences, one small entry a person, go through Codable.

extension NotificationsProjection.State: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.encode("preferences", preferences)
        try object.object("pending") { object in
            for (id, pending) in pending { try object.object(id) { try pending.encodeMembers(&$0) } }
        }
    }
}

extension NotificationsProjection.Pending {
    /// In declaration order, as the synthesized conformance writes it.
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("key", key)
        try object.int("version", version)
        try object.object("notice") { try notice.encodeMembers(&$0) }
        try object.int("dueAt", Int(dueAt))
        try object.strings("channels", channels)
        try object.strings("decided", decided)
        try object.int("firstAt", Int(firstAt))
        try object.string("reason", reason)
    }
}
