package import Foundation

/// What one request's credentials proved, found once by the authentication step
/// (`AuthenticationMiddleware`) before any route runs. Each credential was either not sent, proved,
/// or refused with the reason, which the route's `AccessRule` answers with if it needs that
/// credential (a refused key on a public route is no reason to refuse the request).
package struct Caller: Sendable {
    package enum Proof<Value: Sendable>: Sendable {
        case absent
        case proved(Value)
        case refused(any Error)

        /// The value, if proved.
        package var value: Value? {
            if case .proved(let value) = self { return value }
            return nil
        }

        package var isAbsent: Bool {
            if case .absent = self { return true }
            return false
        }
    }

    /// The app's API key (`X-API-Key`).
    package var key: Proof<AuthenticatedClient> = .absent
    /// A person's access token (`Authorization: Bearer …`).
    package var person: Proof<SignedInPerson> = .absent
    /// The installation an app says it is (`X-Device-Id` and `X-Device-Secret`): what is proved
    /// against the stored device by the registry that holds it, since only it knows the secret.
    package var installation: InstallationClaim?
    /// A page's session cookie (`PageSession`): the key or the person who signed in to the pages.
    package var page: Proof<PageVisitor> = .absent

    package init() {}

    package init(key: Proof<AuthenticatedClient> = .absent, person: Proof<SignedInPerson> = .absent, installation: InstallationClaim? = nil) {
        self.key = key
        self.person = person
        self.installation = installation
    }
}

/// Who signed in to a group of pages: with a key, or as a person.
package enum PageVisitor: Sendable {
    case key(AuthenticatedClient)
    case person(SignedInPerson)

    package var principal: Principal {
        switch self {
        case .key(let client): client.principal
        case .person(let person): person.principal
        }
    }
}

/// A person's access token, verified: its signature, expiry, and that its session is live.
package struct SignedInPerson: Sendable, Equatable {
    package var personId: String
    /// The session (the family of tokens one sign-in leads to).
    package var sessionId: String
    package var org: String
    /// The role as the token carries it; compared only through an app's `AppRole`.
    package var role: String
    package var app: String
    /// The stream sequence of the session event behind the token.
    package var sequence: UInt64
    package var issuedAt: Date
    package var expiresAt: Date
    /// The sessions fold's checkpoint at which the session was found live: until the fold moves,
    /// what was built from this person stands (a cached answer, a socket's next check).
    package var checkedAt: UInt64
    /// The token as presented, for the one answer that hands it back (switching to the membership
    /// it already stands for); never parsed again.
    package var accessToken: String

    package init(personId: String, sessionId: String, org: String, role: String, app: String, sequence: UInt64,
                issuedAt: Date, expiresAt: Date, checkedAt: UInt64 = 0, accessToken: String = "") {
        self.personId = personId
        self.sessionId = sessionId
        self.org = org
        self.role = role
        self.app = app
        self.sequence = sequence
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.checkedAt = checkedAt
        self.accessToken = accessToken
    }

    package var principal: Principal { .person(app: app, org: org, personId: personId, role: role) }

    /// Whether the person holds `role` (or a role the app counts as holding it).
    package func holds<Role: AppRole>(_ role: Role) -> Bool {
        app == Role.app && Role(rawValue: self.role).map { $0.satisfies(role) } == true
    }
}

/// The installation an app says it is, as sent; the device registry proves it.
package struct InstallationClaim: Sendable, Equatable {
    package var deviceId: String?
    package var secret: String?

    package init(deviceId: String?, secret: String?) {
        self.deviceId = deviceId
        self.secret = secret
    }
}
