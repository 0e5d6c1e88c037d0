package import MusterJSON

// The people fold's snapshot grows with the sessions started (one each sign-in, kept until they
// expire), and through Codable writing them was a quarter of a rebuild: sessions are written
// member by member, as their conformance writes them (PeopleSnapshotTests holds the bytes equal).
// The rest, a few entries a person, goes through Codable. Members in declaration order, as the
// synthesized conformance writes them (the encoder puts them in key order when asked).

extension PeopleProjection.State: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.encode("orgs", orgs)
        try object.encode("orgBySlug", orgBySlug)
        try object.encode("accounts", accounts)
        try object.encode("released", released)
        try object.encode("people", people)
        try object.object("sessions") { object in
            for (id, session) in sessions { try object.object(id) { try session.encodeMembers(&$0) } }
        }
        try object.encode("identities", identities)
        try object.encode("unlinkedIdentities", unlinkedIdentities)
        try object.encode("identitiesByPerson", identitiesByPerson)
        try object.encode("memberships", memberships)
        try object.encode("invitations", invitations)
        try object.encode("invitationByContact", invitationByContact)
        try object.encode("invitationsSent", invitationsSent)
    }
}

extension PeopleProjection.Session {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("personId", personId)
        try object.string("orgId", orgId)
        try object.string("app", app)
        try object.string("refreshHash", refreshHash)
        try object.string("refreshExpiresAt", refreshExpiresAt)
        try object.string("revokedReason", revokedReason)
        try object.int("sequence", sequence)
        try object.string("startedAt", startedAt)
        try object.string("lastUsedAt", lastUsedAt)
        try object.string("deviceId", deviceId)
        try object.string("deviceName", deviceName)
        try object.string("platform", platform)
    }
}
