package import MusterEvents

/// `platform.org.created.v1`: an organisation that people sign in to (OFFLEASH's `org_slug`).
package struct OrgCreated: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "org", event: "created", major: 1)

    package var orgId: String
    /// Unique among organisations; what clients send (`demo`).
    package var slug: String
    /// The app whose people belong to it (`offleash`).
    package var app: String
    package var name: String

    package init(orgId: String, slug: String, app: String, name: String) {
        self.orgId = orgId
        self.slug = slug
        self.app = app
        self.name = name
    }

    package var aggregateID: String { orgId }

    package func validate() throws {
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.length(slug, 1...64, field: "/slug")
        guard slug.utf8.allSatisfy(Validate.CharacterClass.lowerAlphanumericDash.contains) else {
            throw EventValidationError(field: "/slug", "must be lowercase letters, digits and -")
        }
        try Validate.name(app, field: "/app")
        try Validate.length(name, 1...200, field: "/name")
    }
}

/// `platform.account.registered.v1`: a person can sign in to an organisation with an email and a
/// password. The aggregate is the sign-in identity (a keyed hash of the organisation and the
/// normalised email), so the log itself refuses a second registration of the same email: the
/// append expects the aggregate to have no events. Everything personal (email, names, phone,
/// password hash) is in `sealed`, encrypted with the person's own key.
package struct AccountRegistered: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "account", event: "registered", major: 1)

    /// 64 lowercase hex: HMAC-SHA-256 under the server's lookup secret.
    package var accountKey: String
    package var personId: String
    package var orgId: String
    package var role: String
    /// Base64 AES-GCM box (nonce, ciphertext, tag) of the person's `PersonalData`.
    package var sealed: String

    package init(accountKey: String, personId: String, orgId: String, role: String, sealed: String) {
        self.accountKey = accountKey
        self.personId = personId
        self.orgId = orgId
        self.role = role
        self.sealed = sealed
    }

    package var aggregateID: String { accountKey }

    package func validate() throws {
        try Validate.prefixed(accountKey, "", .lowerHex, count: 64, field: "/accountKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.name(role, field: "/role")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `platform.account.released.v1`: the sign-in identity is free again (its person was
/// forgotten); a new registration with the same email appends after this event.
package struct AccountReleased: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "account", event: "released", major: 1)

    package var accountKey: String
    package var personId: String

    package init(accountKey: String, personId: String) {
        self.accountKey = accountKey
        self.personId = personId
    }

    package var aggregateID: String { accountKey }

    package func validate() throws {
        try Validate.prefixed(accountKey, "", .lowerHex, count: 64, field: "/accountKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
    }
}

/// `platform.account.moved.v1`: the person changed their email, after proving the new one with a
/// code mailed to it. The sign-in identity is a keyed hash of organisation and email, so the
/// account moves to the new one's key (the aggregate), appended expecting it free: two people
/// moving to one address at once cannot both win. The old key is free again.
package struct AccountMoved: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "account", event: "moved", major: 1)

    /// The new sign-in identity (64 lowercase hex).
    package var accountKey: String
    package var fromKey: String
    package var personId: String
    /// The person's data with the new email, sealed with their own key.
    package var sealed: String

    package init(accountKey: String, fromKey: String, personId: String, sealed: String) {
        self.accountKey = accountKey
        self.fromKey = fromKey
        self.personId = personId
        self.sealed = sealed
    }

    package var aggregateID: String { accountKey }

    package func validate() throws {
        try Validate.prefixed(accountKey, "", .lowerHex, count: 64, field: "/accountKey", "64 lowercase hex digits")
        try Validate.prefixed(fromKey, "", .lowerHex, count: 64, field: "/fromKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `platform.account.changed.v1`: the person changed their profile (names, phone) or their
/// password. `sealed` is their personal data anew, sealed with their own key; appended with the
/// identity's last sequence expected, so two changes at once cannot lose one another.
package struct AccountChanged: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "account", event: "changed", major: 1)
    /// `verified`: the person proved their email with the code mailed to it.
    /// `second-factor`: set up, turned on, used (its time step) or removed.
    package static let changes: Set<String> = ["profile", "password", "verified", "second-factor"]

    package var accountKey: String
    package var personId: String
    package var change: String
    package var sealed: String

    package init(accountKey: String, personId: String, change: String, sealed: String) {
        self.accountKey = accountKey
        self.personId = personId
        self.change = change
        self.sealed = sealed
    }

    package var aggregateID: String { accountKey }

    package func validate() throws {
        try Validate.prefixed(accountKey, "", .lowerHex, count: 64, field: "/accountKey", "64 lowercase hex digits")
        try Validate.uuid(personId, field: "/personId")
        try Validate.oneOf(change, Self.changes, field: "/change")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `platform.person.reassigned.v1`: an operator gave the person another role of their
/// organisation's app; their sessions end, so every token after carries the new role.
package struct PersonReassigned: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "person", event: "reassigned", major: 1)

    package var personId: String
    package var role: String
    /// The operator (`console:<key id>`, `cli:…`).
    package var by: String

    package init(personId: String, role: String, by: String) {
        self.personId = personId
        self.role = role
        self.by = by
    }

    package var aggregateID: String { personId }

    package func validate() throws {
        try Validate.uuid(personId, field: "/personId")
        try Validate.length(role, 1...40, field: "/role")
        try Validate.length(by, 1...100, field: "/by")
    }
}

/// `platform.person.suspended.v1`: an operator stopped the person signing in (their sessions
/// end); `reinstated` lets them in again. Nothing of theirs is deleted (forgetting does that).
package struct PersonSuspended: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "person", event: "suspended", major: 1)

    package var personId: String
    package var reason: String
    package var by: String

    package init(personId: String, reason: String, by: String) {
        self.personId = personId
        self.reason = reason
        self.by = by
    }

    package var aggregateID: String { personId }

    package func validate() throws {
        try Validate.uuid(personId, field: "/personId")
        try Validate.length(reason, 1...500, field: "/reason")
        try Validate.length(by, 1...100, field: "/by")
    }
}

/// `platform.person.reinstated.v1`: a suspended person may sign in again.
package struct PersonReinstated: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "person", event: "reinstated", major: 1)

    package var personId: String
    package var by: String

    package init(personId: String, by: String) {
        self.personId = personId
        self.by = by
    }

    package var aggregateID: String { personId }

    package func validate() throws {
        try Validate.uuid(personId, field: "/personId")
        try Validate.length(by, 1...100, field: "/by")
    }
}

/// `platform.person.forgotten.v1`: the person's key was deleted; what was sealed with it can
/// never be read again, and every fold shows the person as erased.
package struct PersonForgotten: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "person", event: "forgotten", major: 1)

    package var personId: String
    /// Who asked: `self` (the person, with their password) or an operator (`cli:…`).
    package var requestedBy: String

    package init(personId: String, requestedBy: String) {
        self.personId = personId
        self.requestedBy = requestedBy
    }

    package var aggregateID: String { personId }

    package func validate() throws {
        try Validate.uuid(personId, field: "/personId")
        try Validate.length(requestedBy, 1...100, field: "/requestedBy")
    }
}
