package import MusterEvents

/// `pop.subscriber.subscribed.v1`: someone signed up to an organisation's newsletter in the app.
/// The aggregate is the keyed hash of the organisation and the normalised email, so the log itself
/// keeps one live subscription per address and organisation (the append expects the aggregate's
/// history it read). Name and email are only in `sealed`, under the subscriber's own key: an
/// unsubscribe erases the key, and with it every copy of both.
package struct NewsletterSubscribed: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "subscriber", event: "subscribed", major: 1)

    /// 64 lowercase hex: HMAC-SHA-256 of `org` and the normalised email under the lookup secret.
    package var emailKey: String
    /// Whose key seals the name and email (in the personal-data vault), and what unsubscribes.
    package var subscriberId: String
    /// The app's `NewsletterSignup.id`: a retry with the same id is the same signup.
    package var signupId: String
    package var org: String
    /// Base64 AES-GCM box of `{name, email}`.
    package var sealed: String
    /// When the person signed up, as the device recorded it (a signup carries no send time to correct
    /// it by; one later than its arrival is refused).
    package var signupDate: String
    /// When the server received the consent.
    package var consentAt: String

    package init(emailKey: String, subscriberId: String, signupId: String, org: String, sealed: String, signupDate: String, consentAt: String) {
        self.emailKey = emailKey
        self.subscriberId = subscriberId
        self.signupId = signupId
        self.org = org
        self.sealed = sealed
        self.signupDate = signupDate
        self.consentAt = consentAt
    }

    package var aggregateID: String { emailKey }

    package func validate() throws {
        try Validate.prefixed(emailKey, "", .lowerHex, count: 64, field: "/emailKey", "64 lowercase hex digits")
        try Validate.uuid(subscriberId, field: "/subscriberId")
        try Validate.uuid(signupId, field: "/signupId")
        try Validate.slug(org, field: "/org")
        try Validate.base64(sealed, 40...4096, field: "/sealed")
        try Validate.timestamp(signupDate, field: "/signupDate")
        try Validate.timestamp(consentAt, field: "/consentAt")
    }
}

/// `pop.subscriber.confirmed.v1`: the address proved it wants the newsletter, with the link in the
/// confirmation mail its signup was sent (double opt-in). The export says which are confirmed.
package struct NewsletterConfirmed: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "subscriber", event: "confirmed", major: 1)

    package var emailKey: String
    package var subscriberId: String
    package var org: String

    package init(emailKey: String, subscriberId: String, org: String) {
        self.emailKey = emailKey
        self.subscriberId = subscriberId
        self.org = org
    }

    package var aggregateID: String { emailKey }

    package func validate() throws {
        try Validate.prefixed(emailKey, "", .lowerHex, count: 64, field: "/emailKey", "64 lowercase hex digits")
        try Validate.uuid(subscriberId, field: "/subscriberId")
        try Validate.slug(org, field: "/org")
    }
}

/// `pop.subscriber.unsubscribed.v1`: the subscription ended (the link in every newsletter, or an
/// organiser) and the subscriber's key was erased; the address may sign up again afterwards.
package struct NewsletterUnsubscribed: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "subscriber", event: "unsubscribed", major: 1)

    package var emailKey: String
    package var subscriberId: String
    package var org: String

    package init(emailKey: String, subscriberId: String, org: String) {
        self.emailKey = emailKey
        self.subscriberId = subscriberId
        self.org = org
    }

    package var aggregateID: String { emailKey }

    package func validate() throws {
        try Validate.prefixed(emailKey, "", .lowerHex, count: 64, field: "/emailKey", "64 lowercase hex digits")
        try Validate.uuid(subscriberId, field: "/subscriberId")
        try Validate.slug(org, field: "/org")
    }
}
