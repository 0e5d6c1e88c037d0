import Foundation
package import MusterEvents
package import MusterRuntime

/// How one app's people sign in, declared by the app's module; the platform serves
/// `/api/{app}/auth/…` and `/api/{app}/me/export` from it (`AccountRoutes`), so an app with
/// people writes no sign-in code of its own.
package struct AppAccounts: Sendable {
    /// The ways in an app may allow. Password covers sign-up (where `policy.signUpRole` names a
    /// role), sign-in, verification and reset.
    package enum Method: String, Sendable, CaseIterable {
        case password, apple
    }

    package var methods: Set<Method>
    /// Its name, token lifetimes, the role of people who sign themselves up (none: accounts are
    /// made by an operator, a manager or an invitation), and whether email must be verified first.
    package var policy: People.TokenPolicy
    /// The organisation a request without `org_slug` means, where the app has one.
    package var defaultOrg: String?
    /// Who may call the routes for signed-in people: any person of the app (`.person(anyRoleOf:)`).
    package var person: AccessRule
    /// The bundle or Services ids Sign in with Apple's tokens must name.
    package var appleAudiences: [String]
    /// The app's name as its people know it, for the mails' words and authenticator apps.
    package var displayName: String
    /// Whether people may turn on a second factor (time-based codes) for password sign-ins.
    package var secondFactor: Bool
    /// What the app itself holds about the person, for their export (`GET /api/{app}/me/export`).
    package var export: @Sendable (AccessClaims) async throws -> JSONValue
    /// Where a sign-in may name the app's install (`install_id`), for the app to link it to the
    /// person there and then (PoP's progress follows its learner); none: `install_id` is refused.
    package var installLink: InstallLink?

    package struct InstallLink: Sendable {
        /// Who must stand behind the request besides the person: the app's own key, as its link route asks.
        package var access: AccessRule
        package var link: @Sendable (_ installId: String, _ personId: String) async throws -> Void

        package init(access: AccessRule, link: @escaping @Sendable (_ installId: String, _ personId: String) async throws -> Void) {
            self.access = access
            self.link = link
        }
    }

    /// Whether people join with an invitation's code (`POST …/auth/join`): an app whose accounts are
    /// made by a manager's invitation, not by signing up.
    package var joinsByInvitation: Bool

    package init(methods: Set<Method>, policy: People.TokenPolicy, defaultOrg: String?, person: AccessRule,
                appleAudiences: [String] = [], displayName: String, secondFactor: Bool = false, installLink: InstallLink? = nil,
                joinsByInvitation: Bool = false, export: @escaping @Sendable (AccessClaims) async throws -> JSONValue = { _ in .object([:]) }) {
        self.joinsByInvitation = joinsByInvitation
        self.installLink = installLink
        self.secondFactor = secondFactor
        self.methods = methods
        self.policy = policy
        self.defaultOrg = defaultOrg
        self.person = person
        self.appleAudiences = appleAudiences
        self.displayName = displayName
        self.export = export
    }

    package var app: String { policy.app }
    /// Where its routes are: `/api/{app}/auth`.
    package var prefix: String { "/api/\(app)/auth" }
}

extension JSONValue {
    /// Any encodable value as JSON: an app's records, for a person's export.
    package init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }
}
