public import MusterEvents

/// The roles a person can hold in an organisation. OFFLEASH's three come first; the later apps
/// add theirs (moderator, organiser, worker, manager) to the same list.
public enum PersonRoles {
    public static let all: Set<String> = ["customer", "walker", "admin", "moderator", "organiser", "worker", "manager"]
}

/// `platform.org.created.v1`: an organisation that people sign in to (OFFLEASH's `org_slug`).
public struct OrgCreated: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "org", event: "created", major: 1)

    public var orgId: String
    /// Unique among organisations; what clients send (`demo`).
    public var slug: String
    /// The app whose people belong to it (`offleash`).
    public var app: String
    public var name: String

    public init(orgId: String, slug: String, app: String, name: String) {
        self.orgId = orgId
        self.slug = slug
        self.app = app
        self.name = name
    }

    public var aggregateID: String { orgId }

    public func validate() throws {
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.length(slug, 1...64, field: "/slug")
        guard slug.utf8.allSatisfy(Validate.CharacterClass.lowerAlphanumericDash.contains) else {
            throw EventValidationError(field: "/slug", "must be lowercase letters, digits and -")
        }
        try Validate.oneOf(app, KeyApps.all, field: "/app")
        try Validate.length(name, 1...200, field: "/name")
    }
}

/// `platform.account.registered.v1`: a person can sign in to an organisation with an email and a
/// password. The aggregate is the sign-in identity (a keyed hash of the organisation and the
/// normalised email), so the log itself refuses a second registration of the same email: the
/// append expects the aggregate to have no events. Everything personal (email, names, phone,
/// password hash) is in `sealed`, encrypted with the person's own key.
public struct AccountRegistered: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "account", event: "registered", major: 1)

    /// 64 lowercase hex: HMAC-SHA-256 under the server's lookup secret.
    public var accountKey: String
    public var personId: String
    public var orgId: String
    public var role: String
    /// Base64 AES-GCM box (nonce, ciphertext, tag) of the person's `PersonalData`.
    public var sealed: String

    public init(accountKey: String, personId: String, orgId: String, role: String, sealed: String) {
        self.accountKey = accountKey
        self.personId = personId
        self.orgId = orgId
        self.role = role
        self.sealed = sealed
    }

    public var aggregateID: String { accountKey }

    public func validate() throws {
        try Validate.prefixed(accountKey, "", .lowerHex, count: 64, field: "/accountKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.oneOf(role, PersonRoles.all, field: "/role")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `platform.account.released.v1`: the sign-in identity is free again (its person was
/// forgotten); a new registration with the same email appends after this event.
public struct AccountReleased: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "account", event: "released", major: 1)

    public var accountKey: String
    public var personId: String

    public init(accountKey: String, personId: String) {
        self.accountKey = accountKey
        self.personId = personId
    }

    public var aggregateID: String { accountKey }

    public func validate() throws {
        try Validate.prefixed(accountKey, "", .lowerHex, count: 64, field: "/accountKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
    }
}

/// `platform.account.changed.v1`: the person changed their profile (names, phone) or their
/// password. `sealed` is their personal data anew, sealed with their own key; appended with the
/// identity's last sequence expected, so two changes at once cannot lose one another.
public struct AccountChanged: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "account", event: "changed", major: 1)
    public static let changes: Set<String> = ["profile", "password"]

    public var accountKey: String
    public var personId: String
    public var change: String
    public var sealed: String

    public init(accountKey: String, personId: String, change: String, sealed: String) {
        self.accountKey = accountKey
        self.personId = personId
        self.change = change
        self.sealed = sealed
    }

    public var aggregateID: String { accountKey }

    public func validate() throws {
        try Validate.prefixed(accountKey, "", .lowerHex, count: 64, field: "/accountKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
        try Validate.oneOf(change, Self.changes, field: "/change")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `platform.person.forgotten.v1`: the person's key was deleted; what was sealed with it can
/// never be read again, and every fold shows the person as erased.
public struct PersonForgotten: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "person", event: "forgotten", major: 1)

    public var personId: String
    /// Who asked: `self` (the person, with their password) or an operator (`cli:…`).
    public var requestedBy: String

    public init(personId: String, requestedBy: String) {
        self.personId = personId
        self.requestedBy = requestedBy
    }

    public var aggregateID: String { personId }

    public func validate() throws {
        try Validate.uuid(personId, field: "/personId")
        try Validate.length(requestedBy, 1...100, field: "/requestedBy")
    }
}
