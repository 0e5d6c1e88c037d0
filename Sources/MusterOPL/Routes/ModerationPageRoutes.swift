import Foundation
package import Hummingbird
import MusterEvents
import MusterLog
package import MusterPlatform
package import MusterRuntime

/// The plain HTML moderation page at `/moderation`. A moderator signs in with their account (a
/// person with the moderator role in an OPL organisation; the session then holds an 8-hour access
/// token, and signing out ends it) or with a key that has `moderate:opl`. Either is kept in the page
/// session scoped to `/moderation` (`PageSession`: SameSite=Strict keeps other sites from posting
/// decisions with it). Forms post back here and are answered with a redirect (303) to the page
/// that shows the result.
package enum ModerationPageRoutes {
    static let session = PageSession(path: "/moderation")
    static let access = AccessRule.page(scope: OPLScopes.moderate, roles: OPLRole.moderator)

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
    static let policy = People.TokenPolicy(app: OPLScopes.app, accessLifetime: .seconds(8 * 3600), refreshLifetime: .seconds(8 * 3600))

    /// Who decides, as decisions name them: the key's id, or `person:<id>`; nil when the page's
    /// rule admitted nobody (the page then shows the sign-in form).
    static func moderator(_ context: MusterRequestContext) -> String? {
        switch context.principal {
        case .key(_, let keyId): keyId
        case .person(_, _, let personId, _): "person:\(personId)"
        case .nobody, .device: nil
        }
    }

    package static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, people: People, desk: ModerationDesk) {
        routes.get("/moderation", access: access) { request, context in
            guard let moderator = moderator(context) else { return signIn(nil) }
            let filter = try ModerationRoutes.queueFilter(QueryParameters(request))
            let queue = await desk.runner.read { ModerationQueue(state: $0, filter: filter) }
            return html(ModerationPage.queue(queue, filter: filter, moderator: moderator, notice: notice(request)))
        }
        routes.post("/moderation/login", access: .anyone) { request, context in
            let f = try await form(request)
            if let email = f.email, !email.isEmpty {
                let signedIn: People.SignedIn
                do {
                    signedIn = try await people.login(orgSlug: f.org.flatMap { $0.isEmpty ? nil : $0 } ?? "opl", email: email, password: f.password ?? "",
                                                      address: people.clientAddress(request, context), policy: policy)
                } catch let error as AccountError {
                    return signIn(error.code == .wrongCredentials ? "Wrong email or password." : error.message)
                }
                guard OPLRole(rawValue: signedIn.account.role) == .moderator else {
                    return signIn("That account is not a moderator's.")
                }
                return redirect("/moderation", headers: session.signIn(signedIn.accessToken))
            }
            let key = f.key?.trimmingCharacters(in: .whitespaces) ?? ""
            guard (try? await keys.authenticate(key, app: OPLScopes.app, scope: OPLScopes.moderate)) != nil else {
                return signIn("That key is unknown, revoked, or lacks moderate:opl.")
            }
            return redirect("/moderation", headers: session.signIn(key))
        }
        routes.post("/moderation/logout", access: .anyone) { _, context in
            // Signing out of an account ends its session, not only the cookie.
            if case .person(let person)? = context.caller.page.value { try? await people.logout(AccessClaims(person)) }
            return redirect("/moderation", headers: session.signOut)
        }
        routes.get("/moderation/actions/:id", access: access) { request, context in
            guard moderator(context) != nil else { return signIn(nil) }
            let action = try await desk.action(try context.parameters.require("id"))
            return html(ModerationPage.action(action, rules: desk.rules, notice: notice(request)))
        }
        routes.get("/moderation/snapshots/:id", access: access) { request, context in
            guard moderator(context) != nil else { return signIn(nil) }
            let snapshot = try await desk.snapshot(try context.parameters.require("id"))
            let action = await desk.runner.read { $0.actions[snapshot.actionId] }
            return html(ModerationPage.snapshot(snapshot, action: action, notice: notice(request)))
        }
        routes.post("/moderation/actions/:id/:decision", access: access) { request, context in
            guard let moderator = moderator(context) else { return signIn(nil) }
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
                case "approve": _ = try await desk.approve(id, edits: approveEdits(f), moderator: moderator)
                case "reject": _ = try await desk.reject(id, plain, moderator: moderator)
                case "reopen": _ = try await desk.reopen(id, plain, moderator: moderator)
                case "merge": _ = try await desk.merge(id, plain, moderator: moderator)
                case "end": _ = try await desk.end(id, plain, moderator: moderator)
                case "extend": _ = try await desk.extend(id, plain, moderator: moderator)
                default: throw APIError(.notFound, "no decision \(decision.prefix(40))")
                }
            } catch let error as APIError {
                return html(errorPage(error, back: "/moderation/actions/\(id)"), status: error.status)
            }
            return redirect("/moderation/actions/\(id)?done=\(decision)")
        }
        routes.post("/moderation/snapshots/:id/:decision", access: access) { request, context in
            guard let moderator = moderator(context) else { return signIn(nil) }
            let id = try context.parameters.require("id")
            let decision = try context.parameters.require("decision")
            let f = try await form(request)
            do {
                switch decision {
                case "approve":
                    _ = try await desk.approveSnapshot(id, SnapshotApproval(reason: f.reason, type: f.type, name: f.siteName,
                                                                            notificationRadius: f.notificationRadius.flatMap { Int($0) }),
                                                       moderator: moderator)
                case "reject": _ = try await desk.rejectSnapshot(id, DecisionRequest(reason: f.reason), moderator: moderator)
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
