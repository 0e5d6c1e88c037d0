public import Foundation

/// What one request's credentials proved, found once by the authentication step
/// (`AuthenticationMiddleware`) before any route runs. Each credential was either not sent, proved,
/// or refused with the reason, which the route's `AccessRule` answers with if it needs that
/// credential (a refused key on a public route is no reason to refuse the request).
public struct Caller: Sendable {
    public enum Proof<Value: Sendable>: Sendable {
        case absent
        case proved(Value)
        case refused(any Error)

        /// The value, if proved.
        public var value: Value? {
            if case .proved(let value) = self { return value }
            return nil
        }

        public var isAbsent: Bool {
            if case .absent = self { return true }
            return false
        }
    }

    /// The app's API key (`X-API-Key`).
    public var key: Proof<AuthenticatedClient> = .absent
    /// A person's access token (`Authorization: Bearer …`).
    public var person: Proof<SignedInPerson> = .absent
    /// The installation an app says it is (`X-Device-Id` and `X-Device-Secret`): what is proved
    /// against the stored device by the registry that holds it, since only it knows the secret.
    public var installation: InstallationClaim?
    /// A page's session cookie (`PageSession`): the key or the person who signed in to the pages.
    public var page: Proof<PageVisitor> = .absent

    public init() {}

    public init(key: Proof<AuthenticatedClient> = .absent, person: Proof<SignedInPerson> = .absent, installation: InstallationClaim? = nil) {
        self.key = key
        self.person = person
        self.installation = installation
    }
}

/// Who signed in to a group of pages: with a key, or as a person.
public enum PageVisitor: Sendable {
    case key(AuthenticatedClient)
    case person(SignedInPerson)

    public var principal: Principal {
        switch self {
        case .key(let client): client.principal
        case .person(let person): person.principal
        }
    }
}

/// A person's access token, verified: its signature, expiry, and that its session is live.
public struct SignedInPerson: Sendable, Equatable {
    public var personId: String
    /// The session (the family of tokens one sign-in leads to).
    public var sessionId: String
    public var org: String
    /// The role as the token carries it; compared only through an app's `AppRole`.
    public var role: String
    public var app: String
    /// The stream sequence of the session event behind the token.
    public var sequence: UInt64
    public var issuedAt: Date
    public var expiresAt: Date
    /// The sessions fold's checkpoint at which the session was found live: until the fold moves,
    /// what was built from this person stands (a cached answer, a socket's next check).
    public var checkedAt: UInt64
    /// The token as presented, for the one answer that hands it back (switching to the membership
    /// it already stands for); never parsed again.
    public var accessToken: String

    public init(personId: String, sessionId: String, org: String, role: String, app: String, sequence: UInt64,
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

    public var principal: Principal { .person(app: app, org: org, personId: personId, role: role) }

    /// Whether the person holds `role` (or a role the app counts as holding it).
    public func holds<Role: AppRole>(_ role: Role) -> Bool {
        app == Role.app && Role(rawValue: self.role).map { $0.satisfies(role) } == true
    }

    /// The person's role in `Role`'s terms, if the token is of that app and names one of its roles.
    public func role<Role: AppRole>(as: Role.Type) -> Role? {
        app == Role.app ? Role(rawValue: role) : nil
    }
}

/// The installation an app says it is, as sent; the device registry proves it.
public struct InstallationClaim: Sendable, Equatable {
    public var deviceId: String?
    public var secret: String?

    public init(deviceId: String?, secret: String?) {
        self.deviceId = deviceId
        self.secret = secret
    }
}
