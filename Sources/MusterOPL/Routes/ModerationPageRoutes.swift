import Foundation
public import Hummingbird
import MusterEvents
import MusterLog
public import MusterPlatform
public import MusterRuntime

/// The plain HTML moderation page at `/moderation`. A moderator signs in with their account (a
/// person with the moderator role in an OPL organisation; the cookie then holds an 8-hour access
/// token, and signing out ends its session) or with a key that has `moderate:opl`. Either is kept
/// in an HttpOnly, SameSite=Strict cookie scoped to `/moderation` (Strict keeps other sites from
/// posting decisions with it). Forms post back here and are answered with a redirect (303) to the
/// page that shows the result.
public enum ModerationPageRoutes {
    static let cookie = KeyCookie(name: "muster_moderator", path: "/moderation")

    struct Form: Decodable {
        var key, email, password, org, reason, into, durationDays, urls, ownDomains, siteLatitude, siteLongitude, siteName, type, notificationRadius: String?
    }

    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response { HTMLResponse.page(body, status: status) }

    static func signIn(_ message: String?) -> Response { html(ModerationPage.login(message: message), status: .unauthorized) }

    static func redirect(_ location: String, headers: HTTPFields = [:]) -> Response { HTMLResponse.redirect(location, headers: headers) }

    static func form(_ request: Request) async throws -> Form {
        let body = try await request.body.collect(upTo: 64 * 1024)
        return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
    }

    static func notice(_ request: Request) -> String? {
        request.uri.queryParameters["done"].map { "Done: \($0.prefix(60))" }
    }

    /// Moderators' sessions: a working day.
    static let policy = People.TokenPolicy(app: "opl", accessLifetime: .seconds(8 * 3600), refreshLifetime: .seconds(8 * 3600))

    /// An access token rather than an API key (a key is `opl_` and hex; a JWT has two dots).
    static func isToken(_ value: String) -> Bool { value.split(separator: ".", omittingEmptySubsequences: false).count == 3 }

    public static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, people: People, desk: ModerationDesk) {
        let authenticator = keys
        /// The moderator behind the cookie, or nil (then the page shows the sign-in form).
        @Sendable func moderator(_ request: Request) async -> AuthenticatedClient? {
            guard let value = cookie.key(in: request) else { return nil }
            if isToken(value) {
                guard let claims = try? await people.validate(value, app: policy.app), claims.role == "moderator" else { return nil }
                return AuthenticatedClient(id: "person:\(claims.personId)", app: "opl", scopes: [OPLScopes.moderate])
            }
            guard let client = try? await authenticator.authenticate(value), client.scopes.contains(OPLScopes.moderate) else { return nil }
            return client
        }

        routes.get("/moderation") { request, _ in
            guard let client = await moderator(request) else { return signIn(nil) }
            let filter = try ModerationRoutes.queueFilter(QueryParameters(request))
            let queue = await desk.runner.read { ModerationQueue(state: $0, filter: filter) }
            return html(ModerationPage.queue(queue, filter: filter, moderator: client.id, notice: notice(request)))
        }
        routes.post("/moderation/login") { request, context in
            let f = try await form(request)
            if let email = f.email, !email.isEmpty {
                let signedIn: People.SignedIn
                do {
                    signedIn = try await people.login(orgSlug: f.org.flatMap { $0.isEmpty ? nil : $0 } ?? "opl", email: email, password: f.password ?? "",
                                                      address: people.clientAddress(request, context), policy: policy)
                } catch let error as AccountError {
                    return signIn(error.code == .wrongCredentials ? "Wrong email or password." : error.message)
                }
                guard signedIn.account.role == "moderator" else {
                    return signIn("That account is not a moderator's.")
                }
                return redirect("/moderation", headers: cookie.signIn(signedIn.accessToken))
            }
            let key = f.key?.trimmingCharacters(in: .whitespaces) ?? ""
            guard let client = try? await authenticator.authenticate(key), client.scopes.contains(OPLScopes.moderate) else {
                return signIn("That key is unknown, revoked, or lacks moderate:opl.")
            }
            return redirect("/moderation", headers: cookie.signIn(key))
        }
        routes.post("/moderation/logout") { request, _ in
            // Signing out of an account ends its session, not only the cookie.
            if let value = cookie.key(in: request), isToken(value), let claims = try? await people.validate(value, app: policy.app) {
                try? await people.logout(claims)
            }
            return redirect("/moderation", headers: cookie.signOut)
        }
        routes.get("/moderation/actions/:id") { request, context in
            guard await moderator(request) != nil else { return signIn(nil) }
            let action = try await desk.action(try context.parameters.require("id"))
            return html(ModerationPage.action(action, rules: desk.rules, notice: notice(request)))
        }
        routes.get("/moderation/snapshots/:id") { request, context in
            guard await moderator(request) != nil else { return signIn(nil) }
            let snapshot = try await desk.snapshot(try context.parameters.require("id"))
            let action = await desk.runner.read { $0.actions[snapshot.actionId] }
            return html(ModerationPage.snapshot(snapshot, action: action, notice: notice(request)))
        }
        routes.post("/moderation/actions/:id/:decision") { request, context in
            guard let client = await moderator(request) else { return signIn(nil) }
            let id = try context.parameters.require("id")
            let decision = try context.parameters.require("decision")
            let f = try await form(request)
            let plain = DecisionRequest(reason: f.reason, into: f.into, durationDays: f.durationDays.flatMap { Int($0) })
            do {
                switch decision {
                case "preview":
                    // Nothing decided: the page again, showing where the typed entries would reach.
                    let action = try await desk.action(id)
                    let draft = ModerationPage.BlocklistDraft(urls: lines(f.urls), ownDomains: lines(f.ownDomains))
                    return html(ModerationPage.action(action, rules: desk.rules, draft: draft, notice: nil))
                case "approve": _ = try await desk.approve(id, edits: approveEdits(f), moderator: client.id)
                case "reject": _ = try await desk.reject(id, plain, moderator: client.id)
                case "reopen": _ = try await desk.reopen(id, plain, moderator: client.id)
                case "merge": _ = try await desk.merge(id, plain, moderator: client.id)
                case "end": _ = try await desk.end(id, plain, moderator: client.id)
                case "extend": _ = try await desk.extend(id, plain, moderator: client.id)
                default: throw APIError(.notFound, "no decision \(decision.prefix(40))")
                }
            } catch let error as APIError {
                return html(errorPage(error, back: "/moderation/actions/\(id)"), status: error.status)
            }
            return redirect("/moderation/actions/\(id)?done=\(decision)")
        }
        routes.post("/moderation/snapshots/:id/:decision") { request, context in
            guard let client = await moderator(request) else { return signIn(nil) }
            let id = try context.parameters.require("id")
            let decision = try context.parameters.require("decision")
            let f = try await form(request)
            do {
                switch decision {
                case "approve":
                    _ = try await desk.approveSnapshot(id, SnapshotApproval(reason: f.reason, type: f.type, name: f.siteName,
                                                                            notificationRadius: f.notificationRadius.flatMap { Int($0) }),
                                                       moderator: client.id)
                case "reject": _ = try await desk.rejectSnapshot(id, DecisionRequest(reason: f.reason), moderator: client.id)
                default: throw APIError(.notFound, "no decision \(decision.prefix(40))")
                }
            } catch let error as APIError {
                return html(errorPage(error, back: "/moderation/snapshots/\(id)"), status: error.status)
            }
            return redirect("/moderation/snapshots/\(id)?done=\(decision)")
        }
    }

    static func approveEdits(_ f: Form) throws -> ApproveEdits {
        var edits = ApproveEdits(reason: f.reason)
        if f.urls != nil { edits.urls = lines(f.urls) }
        if f.ownDomains != nil { edits.ownDomains = lines(f.ownDomains) }
        if let lat = f.siteLatitude.flatMap(Double.init), let lng = f.siteLongitude.flatMap(Double.init) {
            edits.locations = [ApproveEdits.Site(type: "picket-site", name: f.siteName.flatMap { $0.isEmpty ? nil : $0 },
                                                 latitude: lat, longitude: lng, notificationRadius: 250)]
        }
        return edits
    }

    /// A textarea's non-empty lines, trimmed.
    static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func errorPage(_ error: APIError, back: String) -> String {
        var page = HTMLPage(title: "Not done")
        page.raw("<h1>Not done</h1><p class=\"flag\">")
        page.text(error.message)
        page.raw("</p><p><a href=\"\(escapeHTML(back))\">Back</a></p>")
        return page.finish()
    }
}
