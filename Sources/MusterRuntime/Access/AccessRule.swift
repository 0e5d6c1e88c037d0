import HTTPTypes

/// Who may call a route, declared where the route is registered (`Routes.on(_:_:access:use:)`)
/// and checked there, before the handler, against what the authentication step proved
/// (`Caller`). Its `description` is the route's `x-access` in `schemas/openapi.yaml`, and a test
/// holds the two to each other.
///
/// Answers: 401 when a needed credential is missing, refused, or another app's; 403 when a key
/// lacks the scope or a person's role is not one the route admits. What the caller may touch once
/// admitted is `Access.permits`'s to say (another owner's thing is 404).
package struct AccessRule: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        /// Anyone: no credential needed (`public`).
        case anyone = "public"
        /// An HTML page; its own sign-in form answers a visitor who is not signed in (`page`).
        case page
        /// An app's API key with a scope (`key`).
        case key
        /// A person's access token with one of some roles (`person`).
        case person
        /// Either a person's token (any role) or a key with the scope; the token wins when sent.
        case keyOrPerson = "key-or-person"
        /// Both: the app's key with the scope, and a person's token.
        case keyAndPerson = "key-and-person"
    }

    package let kind: Kind
    /// The app whose credentials are admitted; nil for a service every app shares (`*`), where a
    /// caller of any app touches its own app's things.
    package let app: String?
    /// The scope a key must carry (nil: any key of the app).
    package let scope: String?
    /// The roles as declared (for `x-access`), nil for any role of the app.
    package let roles: [String]?
    /// A page's: whether a person (with one of `roles`) may sign in to it, besides a key with `scope`.
    let admitsPeople: Bool
    /// A page's: whether a script may send its key as `X-API-Key` instead of signing in.
    let admitsKeyHeader: Bool
    /// A page's: whether a key may sign in to it at all (a manager's console admits people only).
    let admitsKeys: Bool
    /// Every role admitted: the declared ones and those that count as holding them.
    let admittedRoles: Set<String>?
    /// The token a `POST` must carry in its form (`PageForms`): a page's, the session's.
    package let formCheck: PageForms.Check

    init(_ kind: Kind, app: String?, scope: String? = nil, roles: [String]? = nil, admittedRoles: Set<String>? = nil,
         admitsPeople: Bool = true, admitsKeyHeader: Bool = false, admitsKeys: Bool = true, formCheck: PageForms.Check? = nil) {
        self.kind = kind
        self.admitsKeys = admitsKeys
        self.formCheck = formCheck ?? (kind == .page ? .session : .none)
        self.admitsPeople = admitsPeople
        self.admitsKeyHeader = admitsKeyHeader
        self.app = app
        self.scope = scope
        self.roles = roles
        self.admittedRoles = admittedRoles
    }

    /// Anyone may call.
    package static let anyone = AccessRule(.anyone, app: nil)

    /// A page group's sign-in form: anyone, with the sign-in token of the form's page.
    package static let signInForm = AccessRule(.anyone, app: nil, formCheck: .signIn)

    /// A page group's sign-out form: anyone, with the session's token when there is a session.
    package static let signOutForm = AccessRule(.anyone, app: nil, formCheck: .session)

    /// HTML pages for a key of `app` (nil: of any app) with `scope`, signed in through the page
    /// session, or sent as `X-API-Key` by a script when `keyHeader`. The page answers its sign-in
    /// form to anyone else (its principal is then `.nobody`).
    package static func page(_ app: String?, scope: String, keyHeader: Bool = false) -> AccessRule {
        AccessRule(.page, app: app, scope: scope, admitsPeople: false, admitsKeyHeader: keyHeader)
    }

    /// HTML pages for a person of `Role.app` with one of `roles`, or a key of the app with `scope`.
    package static func page<Role: AppRole>(scope: String, roles: Role...) -> AccessRule {
        AccessRule(.page, app: Role.app, scope: scope, roles: roles.map(\.rawValue), admittedRoles: Role.admitted(by: roles))
    }

    /// HTML pages for people of `Role.app` with one of `roles` only: no key signs in to them.
    package static func page<Role: AppRole>(roles: Role...) -> AccessRule {
        AccessRule(.page, app: Role.app, roles: roles.map(\.rawValue), admittedRoles: Role.admitted(by: roles), admitsKeys: false)
    }

    /// An API key of `app` (nil: of any app) carrying `scope` (nil: any key).
    package static func key(_ app: String?, scope: String?) -> AccessRule { AccessRule(.key, app: app, scope: scope) }

    /// A person of `Role.app` holding one of `roles`.
    package static func person<Role: AppRole>(_ roles: Role...) -> AccessRule {
        AccessRule(.person, app: Role.app, roles: roles.map(\.rawValue), admittedRoles: Role.admitted(by: roles))
    }

    /// A person of `Role.app` in any of its roles.
    package static func person<Role: AppRole>(anyRoleOf _: Role.Type) -> AccessRule {
        AccessRule(.person, app: Role.app, admittedRoles: Set(Role.allCases.map(\.rawValue)))
    }

    /// A person's token of `app` (nil: of any app), or else a key of it with `scope`.
    package static func keyOrPerson(_ app: String?, scope: String) -> AccessRule { AccessRule(.keyOrPerson, app: app, scope: scope) }

    /// The app's key with `scope` and a person's token of the same app.
    package static func keyAndPerson(_ app: String, scope: String) -> AccessRule { AccessRule(.keyAndPerson, app: app, scope: scope) }

    /// The `x-access` form: `public`, `page:APP`, `key:APP:SCOPE`, `person:APP:ROLES`,
    /// `key-or-person:APP:SCOPE`, `key-and-person:APP:SCOPE` (`*` for any app or any role).
    package var description: String {
        let app = self.app ?? "*"
        switch kind {
        case .anyone: return "public"
        case .page: return "page:\(app)"
        case .key: return "key:\(app):\(scope ?? "")"
        case .person: return "person:\(app):\(roles?.joined(separator: ",") ?? "*")"
        case .keyOrPerson, .keyAndPerson: return "\(kind.rawValue):\(app):\(scope ?? "")"
        }
    }

    // MARK: Admission

    /// The principal the route acts for, or the refusal the caller gets.
    package func admit(_ caller: Caller) throws -> Principal {
        switch kind {
        case .anyone:
            return .nobody
        case .page:
            // Not signed in is no error: the page shows its sign-in form to `.nobody`.
            return admitVisitor(caller) ?? .nobody
        case .key:
            return try admitKey(caller).principal
        case .person:
            return try admitPerson(caller).principal
        case .keyOrPerson:
            if !caller.person.isAbsent { return try admitPerson(caller).principal }
            return try admitKey(caller).principal
        case .keyAndPerson:
            _ = try admitKey(caller)
            return try admitPerson(caller).principal
        }
    }

    func admitVisitor(_ caller: Caller) -> Principal? {
        switch caller.page.value ?? (admitsKeyHeader ? caller.key.value.map(PageVisitor.key) : nil) {
        case .key(let client)?:
            guard admitsKeys, app.map({ $0 == client.app }) ?? true, scope.map(client.scopes.contains) ?? true else { return nil }
            return client.principal
        case .person(let person)?:
            guard admitsPeople, app.map({ $0 == person.app }) ?? true, admittedRoles.map({ $0.contains(person.role) }) ?? true else { return nil }
            return person.principal
        case nil:
            return nil
        }
    }

    func admitKey(_ caller: Caller) throws -> AuthenticatedClient {
        let client: AuthenticatedClient
        switch caller.key {
        case .absent: throw APIError(.unauthorized, "missing API key: send it in the X-API-Key header")
        case .refused(let error): throw error
        case .proved(let proved): client = proved
        }
        if let app, client.app != app { throw APIError(.unauthorized, "this API key is not for \(app)") }
        if let scope, !client.scopes.contains(scope) { throw APIError(.forbidden, "API key lacks scope \(scope)") }
        return client
    }

    func admitPerson(_ caller: Caller) throws -> SignedInPerson {
        let person: SignedInPerson
        switch caller.person {
        case .absent: throw APIError(.unauthorized, "missing bearer token")
        case .refused(let error): throw error
        case .proved(let proved): person = proved
        }
        if let app, person.app != app { throw APIError(.unauthorized, "this token is not for \(app)") }
        if let admittedRoles, !admittedRoles.contains(person.role) {
            let needed = roles ?? admittedRoles.sorted()
            throw APIError(.forbidden, "this needs the \(needed.joined(separator: " or ")) role")
        }
        return person
    }
}

extension AuthenticatedClient {
    package var principal: Principal { .key(app: app, keyId: id) }

    /// An operator's key, which acts for whichever app a request names (`Access.operatorApp`).
    package var isOperator: Bool { app == Access.operatorApp }
}
