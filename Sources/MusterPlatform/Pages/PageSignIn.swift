import Foundation
import MusterEvents
package import Hummingbird
package import MusterRuntime

/// The one sign-in of a page group (`PageGroup`): its form (`signin.mustache`), `POST <path>/login`
/// for a person of the app with a role the pages admit or a key with their scope, and
/// `POST <path>/logout`, which ends the person's session, not only the cookie. The session is the
/// page session (`PageSession`), scoped to the group's path.
package struct PageSignIn: Sendable {
    package struct Org: Sendable {
        package let slug: String
        package let name: String

        package init(slug: String, name: String) {
            self.slug = slug
            self.name = name
        }
    }

    /// Who may sign in as a person: the app's people with one of these roles.
    struct PersonSignIn: Sendable {
        let app: String
        let admittedRoles: Set<String>
        /// The organisations offered in the form; with none, `defaultOrg`.
        let orgs: [Org]
        let defaultOrg: String
        let policy: People.TokenPolicy
        let people: People
    }

    package let group: PageGroup
    let person: PersonSignIn?
    /// The key sign-in: the app (nil: any app) and scope a key must have.
    let key: (app: String?, scope: String)?
    let keys: APIKeyDirectory
    let templates: PageTemplates

    /// People of `Role.app` with one of `roles` (and, when `keyScope` is given, keys of the app with it).
    package static func people<Role: AppRole>(_ group: PageGroup, roles: [Role], keyScope: String? = nil, orgs: [Org] = [], defaultOrg: String,
                                             policy: People.TokenPolicy, people: People, keys: APIKeyDirectory,
                                             templates: PageTemplates) -> PageSignIn {
        PageSignIn(group: group,
                   person: PersonSignIn(app: Role.app, admittedRoles: Role.admitted(by: roles), orgs: orgs, defaultOrg: defaultOrg,
                                        policy: policy, people: people),
                   key: keyScope.map { (Role.app, $0) }, keys: keys, templates: templates)
    }

    /// Keys of `app` (nil: any app) with `scope` only.
    package static func keys(_ group: PageGroup, app: String?, scope: String, keys: APIKeyDirectory, templates: PageTemplates) -> PageSignIn {
        PageSignIn(group: group, person: nil, key: (app, scope), keys: keys, templates: templates)
    }

    struct FormView: Sendable {
        let people: Bool
        let orgs: [Org]
        let hasOrgs: Bool
        /// No list and no default: the visitor types their organisation's slug.
        let askOrg: Bool
        let keyScope: String?
    }

    /// The sign-in page (401), with `message` saying why when a sign-in failed.
    package func form(_ request: Request, _ context: MusterRequestContext, message: String? = nil) async throws -> Response {
        let view = FormView(people: person != nil, orgs: person?.orgs ?? [], hasOrgs: (person?.orgs.count ?? 0) > 1,
                            askOrg: person.map { $0.orgs.isEmpty && $0.defaultOrg.isEmpty } ?? false, keyScope: key?.scope)
        return try await templates.page("signin", title: "Sign in", group: group, request: request, context: context, page: view,
                                        status: .unauthorized, problem: message)
    }

    struct Form: Decodable { var email, password, org, key: String? }

    package func add(to routes: Routes<Router<MusterRequestContext>>) {
        routes.post(group.loginPath, access: .signInForm) { request, context in
            let form = try await PageForms.decode(Form.self, from: request, limit: 16 * 1024)
            if let email = form.email, !email.isEmpty {
                guard let person else { return try await self.form(request, context, message: "These pages take an API key.") }
                let typed = form.org?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                let org = person.orgs.isEmpty && person.defaultOrg.isEmpty ? typed
                    : form.org.flatMap { slug in person.orgs.contains { $0.slug == slug } ? slug : nil } ?? person.orgs.first?.slug ?? person.defaultOrg
                let signedIn: People.SignedIn
                do {
                    signedIn = try await person.people.login(orgSlug: org, email: email, password: form.password ?? "",
                                                             address: person.people.clientAddress(request, context), policy: person.policy)
                } catch let error as AccountError {
                    return try await self.form(request, context, message: error.code == .wrongCredentials ? "Wrong email or password." : error.message)
                }
                guard person.admittedRoles.contains(signedIn.account.role) else {
                    // The session the password started is of no use here: end it.
                    if let (claims, _) = try? await person.people.validateAtCheckpoint(signedIn.accessToken, app: nil) {
                        try? await person.people.logout(claims)
                    }
                    return try await self.form(request, context, message: "That account may not use these pages.")
                }
                return HTMLResponse.redirect(group.path, headers: group.session.signIn(signedIn.accessToken))
            }
            guard let key else { return try await self.form(request, context, message: "These pages take an email and a password.") }
            let presented = form.key?.trimmingCharacters(in: .whitespaces) ?? ""
            guard (try? await keys.authenticate(presented, app: key.app, scope: key.scope)) != nil else {
                return try await self.form(request, context, message: "That key is unknown, revoked, or lacks \(key.scope).")
            }
            return HTMLResponse.redirect(group.path, headers: group.session.signIn(presented))
        }
        routes.post(group.logoutPath, access: .signOutForm) { _, context in
            if case .person(let signedIn)? = context.caller.page.value, let person { try? await person.people.logout(AccessClaims(signedIn)) }
            return HTMLResponse.redirect(group.path, headers: group.session.signOut)
        }
    }
}
