import Foundation
public import Hummingbird
import MusterEvents
public import MusterLog
public import MusterPlatform
public import MusterRuntime

/// The organisers' page at `/pop/civics`: the hardest questions with their texts, how many
/// devices know how much, daily activity, and every question's counts, per organisation and deck.
/// Organisers sign in with their account (the organiser role in a PoP organisation; the cookie
/// holds an 8-hour access token and signing out ends its session) or a key with `read:civics`.
public enum CivicsPageRoutes {
    static let cookie = KeyCookie(name: "muster_pop_organiser", path: "/pop")
    static let policy = People.TokenPolicy(app: "pop", accessLifetime: .seconds(8 * 3600), refreshLifetime: .seconds(8 * 3600))

    struct Form: Decodable { var key, email, password, org: String? }

    public static func add(to routes: Routes<Router<MusterRequestContext>>, runner: ProjectionRunner<CivicsProjection>, config: PoPConfig,
                           keys: APIKeyDirectory, people: People) {
        /// The organisation the visitor may see (nil: every one, for a key), or nil when not signed in.
        @Sendable func visitor(_ request: Request) async -> (signedIn: Bool, org: String?) {
            guard let value = cookie.key(in: request) else { return (false, nil) }
            if value.split(separator: ".", omittingEmptySubsequences: false).count == 3 {
                guard let claims = try? await people.validate(value, app: policy.app), claims.role == "organiser",
                      let org = await people.runner.read({ $0.orgs[claims.org] }), org.app == "pop" else { return (false, nil) }
                return (true, org.slug)
            }
            guard (try? await keys.authenticate(value, app: PoPRoutes.app, scope: PoPRoutes.readScope)) != nil else { return (false, nil) }
            return (true, nil)
        }
        @Sendable func signIn(_ message: String?) -> Response {
            HTMLResponse.page(CivicsPage.login(message: message, orgs: config.orgs), status: .unauthorized)
        }

        routes.get("/pop/civics") { request, _ in
            let who = await visitor(request)
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
        routes.post("/pop/civics/login") { request, context in
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
                guard signedIn.account.role == "organiser" else { return signIn("That account is not an organiser's.") }
                return HTMLResponse.redirect("/pop/civics", headers: cookie.signIn(signedIn.accessToken))
            }
            let key = form.key?.trimmingCharacters(in: .whitespaces) ?? ""
            guard (try? await keys.authenticate(key, app: PoPRoutes.app, scope: PoPRoutes.readScope)) != nil else {
                return signIn("That key is unknown, revoked, or lacks read:civics.")
            }
            return HTMLResponse.redirect("/pop/civics", headers: cookie.signIn(key))
        }
        routes.post("/pop/civics/logout") { request, _ in
            if let value = cookie.key(in: request), value.split(separator: ".").count == 3, let claims = try? await people.validate(value, app: policy.app) {
                try? await people.logout(claims)
            }
            return HTMLResponse.redirect("/pop/civics", headers: cookie.signOut)
        }
    }
}
