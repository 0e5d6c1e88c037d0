public import MusterEvents

/// `platform.invitation.withdrawn.v1`: the invitation was given up before anyone joined with it
/// (its message could not be delivered); the contact may be invited again at once.
public struct InvitationWithdrawn: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "invitation", event: "withdrawn", major: 1)
    public static let reasons: Set<String> = ["undelivered"]

    public var contactKey: String
    public var invitationId: String
    public var reason: String

    public init(contactKey: String, invitationId: String, reason: String) {
        (self.contactKey, self.invitationId, self.reason) = (contactKey, invitationId, reason)
    }

    public var aggregateID: String { contactKey }

    public func validate() throws {
        try Validate.prefixed(contactKey, "", .lowerHex, count: 64, field: "/contactKey", "64 lowercase hex digits")
        try Validate.uuid(invitationId, field: "/invitationId")
        try Validate.oneOf(reason, Self.reasons, field: "/reason")
    }
}
