public import MusterEvents

/// The ways a person signs in besides their email and password.
public enum IdentityProvider: String, Codable, Sendable, CaseIterable {
    case apple, google, phone
}

/// `platform.identity.linked.v1`: a sign-in identity of a provider (an Apple or Google account,
/// a phone number) belongs to a person. The aggregate is a keyed hash of the provider and the
/// provider's id for the account, so the log itself refuses to give one account to two people:
/// the append expects the aggregate to have no events (or to end in an unlink). What identifies
/// the person there (the provider's id, email, phone) is sealed with the person's key.
public struct IdentityLinked: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "identity", event: "linked", major: 1)

    /// 64 lowercase hex: HMAC-SHA-256 of provider and subject under the server's lookup secret.
    public var identityKey: String
    public var identityId: String
    public var personId: String
    public var provider: String
    /// Base64 AES-GCM box of `LinkedIdentity`.
    public var sealed: String

    public init(identityKey: String, identityId: String, personId: String, provider: String, sealed: String) {
        self.identityKey = identityKey
        self.identityId = identityId
        self.personId = personId
        self.provider = provider
        self.sealed = sealed
    }

    public var aggregateID: String { identityKey }

    public func validate() throws {
        try Validate.prefixed(identityKey, "", .lowerHex, count: 64, field: "/identityKey", "64 lowercase hex digits")
        try Validate.uuid(identityId, field: "/identityId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.oneOf(provider, Set(IdentityProvider.allCases.map(\.rawValue)), field: "/provider")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `platform.identity.unlinked.v1`: the person unlinked it; the provider's account is free again.
public struct IdentityUnlinked: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "identity", event: "unlinked", major: 1)

    public var identityKey: String
    public var personId: String

    public init(identityKey: String, personId: String) {
        self.identityKey = identityKey
        self.personId = personId
    }

    public var aggregateID: String { identityKey }

    public func validate() throws {
        try Validate.prefixed(identityKey, "", .lowerHex, count: 64, field: "/identityKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
    }
}

/// What a linked identity names, sealed with the person's key.
public struct LinkedIdentity: Codable, Sendable, Equatable {
    /// The provider's id for the account (Apple's or Google's `sub`, the phone number).
    public var subject: String
    public var email: String?
    public var phone: String?
}
