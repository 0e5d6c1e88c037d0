import Foundation
package import Hummingbird
import MusterEvents
package import MusterLog
package import MusterPlatform
package import MusterRuntime

/// The organisers' page at `/pop/civics`: the hardest questions with their texts, how many
/// devices know how much, daily activity, and every question's counts, per organisation and deck.
/// Organisers sign in with their account (the organiser role in a PoP organisation; the page
/// session holds an 8-hour access token and signing out ends it) or a key with `read:civics`.
package enum CivicsPageRoutes {
    static let session = PageSession(path: "/pop")
    static let access = AccessRule.page(scope: PoPRoutes.readScope, roles: PoPRole.organiser)
    static let policy = People.TokenPolicy(app: PoPRoutes.app, accessLifetime: .seconds(8 * 3600), refreshLifetime: .seconds(8 * 3600))

    struct Form: Decodable { var key, email, password, org: String? }

    package static func add(to routes: Routes<Router<MusterRequestContext>>, runner: ProjectionRunner<CivicsProjection>, config: PoPConfig,
                           keys: APIKeyDirectory, people: People) {
        /// The organisation the visitor may see (nil: every one, for a key), or nil when not signed in.
        @Sendable func visitor(_ context: MusterRequestContext) async -> (signedIn: Bool, org: String?) {
            switch context.principal {
            case .key: return (true, nil)
            case .person(_, let orgId, _, _):
                guard let org = await people.runner.read({ $0.orgs[orgId] }), org.app == PoPRoutes.app else { return (false, nil) }
                return (true, org.slug)
            case .nobody, .device: return (false, nil)
            }
        }
        @Sendable func signIn(_ message: String?) -> Response {
            HTMLResponse.page(CivicsPage.login(message: message, orgs: config.orgs), status: .unauthorized)
        }

        routes.get("/pop/civics", access: access) { request, context in
            let who = await visitor(context)
            guard who.signedIn else { return signIn(nil) }
            var query = try CivicsQuery(request, config: config)
            if let own = who.org { query.org = own } // an organiser sees their own organisation
            let today = CivicsQuery.today()
            let q = query
            let html = await runner.read { state in
                CivicsPage.page(CivicsReport(state: state, config: config), query: q, today: today, config: config, fixedOrg: who.org != nil)
            }
            return HTMLResponse.page(html)
        }
        routes.post("/pop/civics/login", access: .anyone) { request, context in
            let body = try await request.body.collect(upTo: 16 * 1024)
            let form = try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
            if let email = form.email, !email.isEmpty {
                let signedIn: People.SignedIn
                do {
                    signedIn = try await people.login(orgSlug: form.org ?? config.orgs.first?.slug ?? "", email: email, password: form.password ?? "",
                                                      address: people.clientAddress(request, context), policy: policy)
                } catch let error as AccountError {
                    return signIn(error.code == .wrongCredentials ? "Wrong email or password." : error.message)
                }
                guard PoPRole(rawValue: signedIn.account.role) == .organiser else { return signIn("That account is not an organiser's.") }
                return HTMLResponse.redirect("/pop/civics", headers: session.signIn(signedIn.accessToken))
            }
            let key = form.key?.trimmingCharacters(in: .whitespaces) ?? ""
            guard (try? await keys.authenticate(key, app: PoPRoutes.app, scope: PoPRoutes.readScope)) != nil else {
                return signIn("That key is unknown, revoked, or lacks read:civics.")
            }
            return HTMLResponse.redirect("/pop/civics", headers: session.signIn(key))
        }
        routes.post("/pop/civics/logout", access: .anyone) { _, context in
            // Signing out of an account ends its session, not only the cookie.
            if case .person(let person)? = context.caller.page.value { try? await people.logout(AccessClaims(person)) }
            return HTMLResponse.redirect("/pop/civics", headers: session.signOut)
        }
    }
}
