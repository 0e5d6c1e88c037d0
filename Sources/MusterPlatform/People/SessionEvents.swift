package import MusterEvents
package import MusterJSON

/// `platform.session.started.v1`: a person signed in. The session is the family of every access
/// and refresh token that sign-in leads to; revoking it ends them all.
package struct SessionStarted: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "session", event: "started", major: 1)

    package var sessionId: String
    package var personId: String
    package var orgId: String
    package var app: String
    /// SHA-256 (lowercase hex) of the refresh token now valid; the token itself is never stored.
    package var refreshHash: String
    /// When the refresh token stops working (RFC 3339).
    package var refreshExpiresAt: String
    /// The registered installation the refresh token is bound to: it refreshes only with that
    /// installation's secret (an app that keeps the token behind Face ID binds it).
    package var deviceId: String?
    /// What the person sees in their list of sessions: the device's name and platform, as the app said.
    package var deviceName: String?
    package var platform: String?

    package init(sessionId: String, personId: String, orgId: String, app: String, refreshHash: String, refreshExpiresAt: String,
                deviceId: String? = nil, deviceName: String? = nil, platform: String? = nil) {
        self.sessionId = sessionId
        self.personId = personId
        self.orgId = orgId
        self.app = app
        self.refreshHash = refreshHash
        self.refreshExpiresAt = refreshExpiresAt
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.platform = platform
    }

    package var aggregateID: String { sessionId }

    package func validate() throws {
        try Validate.uuid(sessionId, field: "/sessionId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.name(app, field: "/app")
        try Validate.prefixed(refreshHash, "", .lowerHex, count: 64, field: "/refreshHash", "64 lowercase hex digits")
        try Validate.timestamp(refreshExpiresAt, field: "/refreshExpiresAt")
        if let deviceId { try DeviceRules.validateID(deviceId) }
        if let deviceName { try Validate.length(deviceName, 1...100, field: "/deviceName") }
        if let platform { try Validate.oneOf(platform, SessionStarted.platforms, field: "/platform") }
    }

    package static let platforms: Set<String> = ["ios", "android", "web"]
}

/// `platform.session.refreshed.v1`: a refresh token was spent and a new one issued. Appended with
/// the session's last sequence expected, so two uses of one token cannot both win.
package struct SessionRefreshed: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "session", event: "refreshed", major: 1)

    package var sessionId: String
    package var refreshHash: String
    package var refreshExpiresAt: String

    package init(sessionId: String, refreshHash: String, refreshExpiresAt: String) {
        self.sessionId = sessionId
        self.refreshHash = refreshHash
        self.refreshExpiresAt = refreshExpiresAt
    }

    package var aggregateID: String { sessionId }

    package func validate() throws {
        try Validate.uuid(sessionId, field: "/sessionId")
        try Validate.prefixed(refreshHash, "", .lowerHex, count: 64, field: "/refreshHash", "64 lowercase hex digits")
        try Validate.timestamp(refreshExpiresAt, field: "/refreshExpiresAt")
    }
}

/// `platform.session.revoked.v1`: every token of the session stops working.
package struct SessionRevoked: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "session", event: "revoked", major: 1)
    /// `signed-out`: the person ended it from their list of sessions; `signed-out-elsewhere`: they
    /// ended every session but the one they asked from; `password-reset`: a reset ended them all.
    package static let reasons: Set<String> = ["logout", "refresh-reuse", "forgotten", "operator", "signed-out", "signed-out-elsewhere",
                                               "password-reset", "reassigned", "suspended"]

    package var sessionId: String
    package var reason: String

    package init(sessionId: String, reason: String) {
        self.sessionId = sessionId
        self.reason = reason
    }

    package var aggregateID: String { sessionId }

    package func validate() throws {
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
        catalog.register(AccountMoved.self)
        catalog.register(IdentityLinked.self)
        catalog.register(IdentityUnlinked.self)
        catalog.register(MembershipGranted.self)
        catalog.register(InvitationSent.self)
        catalog.register(InvitationAccepted.self)
        catalog.register(InvitationWithdrawn.self)
        catalog.register(PersonForgotten.self)
        catalog.register(PersonReassigned.self)
        catalog.register(PersonSuspended.self)
        catalog.register(PersonReinstated.self)
        catalog.register(SessionStarted.self)
        catalog.register(SessionRefreshed.self)
        catalog.register(SessionRevoked.self)
    }
}

// A session starts with every sign-in, and the people fold reads each one: read from and written
// to the stored form by hand, members in their stored (sorted) order. CodecAgreementTests holds
// both ways equal to the Codable conformance on random payloads.

extension SessionStarted: StoredFieldsDecodable {
    package init(storedFields fields: JSONFields) throws {
        let (app, deviceId, deviceName) = (try fields.required(fields.string("app"), "app"), try fields.string("deviceId"), try fields.string("deviceName"))
        let (orgId, personId, platform) = (try fields.required(fields.string("orgId"), "orgId"),
                                           try fields.required(fields.string("personId"), "personId"), try fields.string("platform"))
        let refreshExpiresAt = try fields.required(fields.string("refreshExpiresAt"), "refreshExpiresAt")
        let refreshHash = try fields.required(fields.string("refreshHash"), "refreshHash")
        self.init(sessionId: try fields.required(fields.string("sessionId"), "sessionId"), personId: personId, orgId: orgId, app: app,
                  refreshHash: refreshHash, refreshExpiresAt: refreshExpiresAt, deviceId: deviceId, deviceName: deviceName, platform: platform)
    }
}

extension SessionStarted: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("app", app)
        try object.string("deviceId", deviceId)
        try object.string("deviceName", deviceName)
        try object.string("orgId", orgId)
        try object.string("personId", personId)
        try object.string("platform", platform)
        try object.string("refreshExpiresAt", refreshExpiresAt)
        try object.string("refreshHash", refreshHash)
        try object.string("sessionId", sessionId)
    }
}
