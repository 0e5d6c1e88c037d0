import Foundation
package import Hummingbird
import MusterEvents
import MusterLog
package import MusterPlatform
package import MusterRuntime

/// The moderation pages at `/moderation`, in the pages' shell. A moderator signs in with their
/// account (a person with the moderator role in an OPL organisation; the session then holds an
/// 8-hour access token, and signing out ends it) or with a key that has `moderate:opl`
/// (`PageSignIn`). Forms post back here with their token and are answered with a redirect (303)
/// to the page that shows the result.
package enum ModerationPageRoutes {
    static let group = PageGroup(name: "OPL moderation", path: "/moderation", nav: [.init("Queue", "/moderation")])
    static let access = AccessRule.page(scope: OPLScopes.moderate, roles: OPLRole.moderator)

    struct Form: Decodable {
        var reason, into, durationDays, urls, ownDomains, siteLatitude, siteLongitude, siteName, type, notificationRadius: String?
    }

    static func redirect(_ location: String, headers: HTTPFields = [:]) -> Response { HTMLResponse.redirect(location, headers: headers) }

    static func form(_ request: Request) async throws -> Form {
        try await PageForms.decode(Form.self, from: request)
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

    package static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, people: People, desk: ModerationDesk,
                           templates: PageTemplates) {
        let signIn = PageSignIn.people(group, roles: [OPLRole.moderator], keyScope: OPLScopes.moderate, defaultOrg: "opl", policy: policy,
                                       people: people, keys: keys, templates: templates)
        signIn.add(to: routes)
        @Sendable func page(_ template: String, _ title: String, _ view: some Sendable, _ request: Request, _ context: MusterRequestContext,
                            status: HTTPResponse.Status = .ok, problem: String? = nil) async throws -> Response {
            try await templates.page("moderation/\(template)", title: title, group: group, request: request, context: context, page: view,
                                     status: status, notice: notice(request), problem: problem)
        }
        @Sendable func refused(_ error: APIError, back: String, _ request: Request, _ context: MusterRequestContext) async throws -> Response {
            try await page("refused", "Not done", ModerationPage.Refusal(message: error.message, back: back), request, context,
                           status: error.status, problem: error.message)
        }
        routes.get("/moderation", access: access) { request, context in
            guard moderator(context) != nil else { return try await signIn.form(request, context) }
            let filter = try ModerationRoutes.queueFilter(QueryParameters(request))
            let queue = await desk.runner.read { ModerationQueue(state: $0, filter: filter) }
            return try await page("queue", "Moderation queue", ModerationPage.queue(queue, filter: filter), request, context)
        }
        routes.get("/moderation/actions/:id", access: access) { request, context in
            guard moderator(context) != nil else { return try await signIn.form(request, context) }
            let action = try await desk.action(try context.parameters.require("id"))
            return try await page("action", action.employer.name, ModerationPage.action(action, rules: desk.rules), request, context)
        }
        routes.get("/moderation/snapshots/:id", access: access) { request, context in
            guard moderator(context) != nil else { return try await signIn.form(request, context) }
            let snapshot = try await desk.snapshot(try context.parameters.require("id"))
            let action = await desk.runner.read { $0.actions[snapshot.actionId] }
            return try await page("snapshot", "GPS snapshot", ModerationPage.snapshot(snapshot, action: action), request, context)
        }
        routes.post("/moderation/actions/:id/:decision", access: access) { request, context in
            guard let moderator = moderator(context) else { return try await signIn.form(request, context) }
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
                    return try await page("action", action.employer.name, ModerationPage.action(action, rules: desk.rules, draft: draft), request, context)
                case "approve": _ = try await desk.approve(id, edits: approveEdits(f), moderator: moderator)
                case "reject": _ = try await desk.reject(id, plain, moderator: moderator)
                case "reopen": _ = try await desk.reopen(id, plain, moderator: moderator)
                case "merge": _ = try await desk.merge(id, plain, moderator: moderator)
                case "end": _ = try await desk.end(id, plain, moderator: moderator)
                case "extend": _ = try await desk.extend(id, plain, moderator: moderator)
                default: throw APIError(.notFound, "no decision \(decision.prefix(40))")
                }
            } catch let error as APIError {
                return try await refused(error, back: "/moderation/actions/\(id)", request, context)
            }
            return redirect("/moderation/actions/\(id)?done=\(decision)")
        }
        routes.post("/moderation/snapshots/:id/:decision", access: access) { request, context in
            guard let moderator = moderator(context) else { return try await signIn.form(request, context) }
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
                return try await refused(error, back: "/moderation/snapshots/\(id)", request, context)
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
}
