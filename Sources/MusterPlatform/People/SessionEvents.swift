public import MusterEvents

/// `platform.session.started.v1`: a person signed in. The session is the family of every access
/// and refresh token that sign-in leads to; revoking it ends them all.
public struct SessionStarted: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "session", event: "started", major: 1)

    public var sessionId: String
    public var personId: String
    public var orgId: String
    public var app: String
    /// SHA-256 (lowercase hex) of the refresh token now valid; the token itself is never stored.
    public var refreshHash: String
    /// When the refresh token stops working (RFC 3339).
    public var refreshExpiresAt: String

    public init(sessionId: String, personId: String, orgId: String, app: String, refreshHash: String, refreshExpiresAt: String) {
        self.sessionId = sessionId
        self.personId = personId
        self.orgId = orgId
        self.app = app
        self.refreshHash = refreshHash
        self.refreshExpiresAt = refreshExpiresAt
    }

    public var aggregateID: String { sessionId }

    public func validate() throws {
        try Validate.uuid(sessionId, field: "/sessionId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.oneOf(app, KeyApps.all, field: "/app")
        try Validate.prefixed(refreshHash, "", .lowerHex, count: 64, field: "/refreshHash", "64 lowercase hex digits")
        try Validate.timestamp(refreshExpiresAt, field: "/refreshExpiresAt")
    }
}

/// `platform.session.refreshed.v1`: a refresh token was spent and a new one issued. Appended with
/// the session's last sequence expected, so two uses of one token cannot both win.
public struct SessionRefreshed: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "session", event: "refreshed", major: 1)

    public var sessionId: String
    public var refreshHash: String
    public var refreshExpiresAt: String

    public init(sessionId: String, refreshHash: String, refreshExpiresAt: String) {
        self.sessionId = sessionId
        self.refreshHash = refreshHash
        self.refreshExpiresAt = refreshExpiresAt
    }

    public var aggregateID: String { sessionId }

    public func validate() throws {
        try Validate.uuid(sessionId, field: "/sessionId")
        try Validate.prefixed(refreshHash, "", .lowerHex, count: 64, field: "/refreshHash", "64 lowercase hex digits")
        try Validate.timestamp(refreshExpiresAt, field: "/refreshExpiresAt")
    }
}

/// `platform.session.revoked.v1`: every token of the session stops working.
public struct SessionRevoked: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "session", event: "revoked", major: 1)
    public static let reasons: Set<String> = ["logout", "refresh-reuse", "forgotten", "operator"]

    public var sessionId: String
    public var reason: String

    public init(sessionId: String, reason: String) {
        self.sessionId = sessionId
        self.reason = reason
    }

    public var aggregateID: String { sessionId }

    public func validate() throws {
        try Validate.uuid(sessionId, field: "/sessionId")
        try Validate.oneOf(reason, Self.reasons, field: "/reason")
    }
}

extension EventCatalog {
    /// People: organisations, sign-in identities, sessions, forgetting.
    static func registerPeople(in catalog: inout EventCatalog) {
        catalog.register(OrgCreated.self)
        catalog.register(AccountRegistered.self)
        catalog.register(AccountReleased.self)
        catalog.register(AccountChanged.self)
        catalog.register(IdentityLinked.self)
        catalog.register(IdentityUnlinked.self)
        catalog.register(MembershipGranted.self)
        catalog.register(InvitationSent.self)
        catalog.register(InvitationAccepted.self)
        catalog.register(InvitationWithdrawn.self)
        catalog.register(PersonForgotten.self)
        catalog.register(SessionStarted.self)
        catalog.register(SessionRefreshed.self)
        catalog.register(SessionRevoked.self)
    }
}
