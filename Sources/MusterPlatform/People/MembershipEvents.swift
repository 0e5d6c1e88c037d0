package import MusterEvents

/// `platform.membership.granted.v1`: a person holds a role in an organisation besides the one their
/// sign-in identity belongs to (they started a business, or joined one as a customer). The
/// aggregate is a keyed hash of the person and the organisation, appended with "no events yet"
/// expected: one membership per person and organisation, whoever asks at once.
package struct MembershipGranted: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "membership", event: "granted", major: 1)

    /// 64 lowercase hex: HMAC-SHA-256 of person and organisation under the lookup secret.
    package var membershipKey: String
    package var membershipId: String
    package var personId: String
    package var orgId: String
    package var role: String
    package var title: String?

    package init(membershipKey: String, membershipId: String, personId: String, orgId: String, role: String, title: String? = nil) {
        (self.membershipKey, self.membershipId, self.personId, self.orgId, self.role, self.title) = (membershipKey, membershipId, personId, orgId, role, title)
    }

    package var aggregateID: String { membershipKey }

    package func validate() throws {
        try Validate.prefixed(membershipKey, "", .lowerHex, count: 64, field: "/membershipKey", "64 lowercase hex digits")
        try Validate.uuid(membershipId, field: "/membershipId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.name(role, field: "/role")
        if let title { try Validate.length(title, 1...100, field: "/title") }
    }
}
