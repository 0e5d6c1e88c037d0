package import MusterEvents

/// `platform.invitation.sent.v1`: someone of an organisation invited a contact (an email address
/// or a phone number) to join it in a role. The aggregate is a keyed hash of the organisation and
/// the contact, appended expecting the aggregate's last event: one pending invitation per contact
/// and organisation, however many ask at once. Neither the contact nor the invite code is kept:
/// only the code's SHA-256, which is what joining looks it up by.
package struct InvitationSent: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "invitation", event: "sent", major: 1)
    package static let channels: Set<String> = ["email", "sms"]

    /// 64 lowercase hex: HMAC-SHA-256 of organisation and contact under the lookup secret.
    package var contactKey: String
    package var invitationId: String
    /// 64 lowercase hex: SHA-256 of the invite code.
    package var codeHash: String
    package var orgId: String
    package var role: String
    package var inviterId: String
    package var channel: String
    package var expiresAt: String

    package init(contactKey: String, invitationId: String, codeHash: String, orgId: String, role: String, inviterId: String,
                channel: String, expiresAt: String) {
        (self.contactKey, self.invitationId, self.codeHash, self.orgId, self.role, self.inviterId, self.channel, self.expiresAt) =
            (contactKey, invitationId, codeHash, orgId, role, inviterId, channel, expiresAt)
    }

    package var aggregateID: String { contactKey }

    package func validate() throws {
        try Validate.prefixed(contactKey, "", .lowerHex, count: 64, field: "/contactKey", "64 lowercase hex digits")
        try Validate.uuid(invitationId, field: "/invitationId")
        try Validate.prefixed(codeHash, "", .lowerHex, count: 64, field: "/codeHash", "64 lowercase hex digits")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.name(role, field: "/role")
        try Validate.uuid(inviterId, field: "/inviterId")
        try Validate.oneOf(channel, Self.channels, field: "/channel")
        try Validate.timestamp(expiresAt, field: "/expiresAt")
    }
}

/// `platform.invitation.accepted.v1`: the invited person joined; the invitation is used up and
/// `platform.membership.granted.v1` records the membership it made.
package struct InvitationAccepted: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "invitation", event: "accepted", major: 1)

    package var contactKey: String
    package var invitationId: String
    package var personId: String

    package init(contactKey: String, invitationId: String, personId: String) {
        (self.contactKey, self.invitationId, self.personId) = (contactKey, invitationId, personId)
    }

    package var aggregateID: String { contactKey }

    package func validate() throws {
        try Validate.prefixed(contactKey, "", .lowerHex, count: 64, field: "/contactKey", "64 lowercase hex digits")
        try Validate.uuid(invitationId, field: "/invitationId")
        try Validate.uuid(personId, field: "/personId")
    }
}
