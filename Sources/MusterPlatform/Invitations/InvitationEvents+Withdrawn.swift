package import MusterEvents

/// `platform.invitation.withdrawn.v1`: the invitation was given up before anyone joined with it
/// (its message could not be delivered); the contact may be invited again at once.
package struct InvitationWithdrawn: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "invitation", event: "withdrawn", major: 1)
    package static let reasons: Set<String> = ["undelivered"]

    package var contactKey: String
    package var invitationId: String
    package var reason: String

    package init(contactKey: String, invitationId: String, reason: String) {
        (self.contactKey, self.invitationId, self.reason) = (contactKey, invitationId, reason)
    }

    package var aggregateID: String { contactKey }

    package func validate() throws {
        try Validate.prefixed(contactKey, "", .lowerHex, count: 64, field: "/contactKey", "64 lowercase hex digits")
        try Validate.uuid(invitationId, field: "/invitationId")
        try Validate.oneOf(reason, Self.reasons, field: "/reason")
    }
}
