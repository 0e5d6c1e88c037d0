package import MusterEvents

/// The ways a person signs in besides their email and password.
package enum IdentityProvider: String, Codable, Sendable, CaseIterable {
    case apple, google, phone
}

/// `platform.identity.linked.v1`: a sign-in identity of a provider (an Apple or Google account,
/// a phone number) belongs to a person. The aggregate is a keyed hash of the provider and the
/// provider's id for the account, so the log itself refuses to give one account to two people:
/// the append expects the aggregate to have no events (or to end in an unlink). What identifies
/// the person there (the provider's id, email, phone) is sealed with the person's key.
package struct IdentityLinked: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "identity", event: "linked", major: 1)

    /// 64 lowercase hex: HMAC-SHA-256 of provider and subject under the server's lookup secret.
    package var identityKey: String
    package var identityId: String
    package var personId: String
    package var provider: String
    /// Base64 AES-GCM box of `LinkedIdentity`.
    package var sealed: String

    package init(identityKey: String, identityId: String, personId: String, provider: String, sealed: String) {
        self.identityKey = identityKey
        self.identityId = identityId
        self.personId = personId
        self.provider = provider
        self.sealed = sealed
    }

    package var aggregateID: String { identityKey }

    package func validate() throws {
        try Validate.prefixed(identityKey, "", .lowerHex, count: 64, field: "/identityKey", "64 lowercase hex digits")
        try Validate.uuid(identityId, field: "/identityId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.oneOf(provider, Set(IdentityProvider.allCases.map(\.rawValue)), field: "/provider")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `platform.identity.unlinked.v1`: the person unlinked it; the provider's account is free again.
package struct IdentityUnlinked: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "identity", event: "unlinked", major: 1)

    package var identityKey: String
    package var personId: String

    package init(identityKey: String, personId: String) {
        self.identityKey = identityKey
        self.personId = personId
    }

    package var aggregateID: String { identityKey }

    package func validate() throws {
        try Validate.prefixed(identityKey, "", .lowerHex, count: 64, field: "/identityKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
    }
}

/// What a linked identity names, sealed with the person's key.
package struct LinkedIdentity: Codable, Sendable, Equatable {
    /// The provider's id for the account (Apple's or Google's `sub`, the phone number).
    package var subject: String
    package var email: String?
    package var phone: String?
}
