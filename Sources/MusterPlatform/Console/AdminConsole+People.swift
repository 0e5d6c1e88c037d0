import Foundation
import Hummingbird
import MusterEvents
import MusterLog
package import MusterRuntime

/// The operator console's people: each organisation with its people (names and emails opened
/// for the page), adding a person with a role (as `muster people add`), another role, suspending
/// and reinstating (each change ends their sessions), and forgetting one (as `muster people
/// forget`: their key is deleted, so nothing sealed with it can be read again).
extension AdminConsole {
    struct PeopleView: Sendable {
        struct Person: Sendable {
            let id: String
            let name: String
            let email: String
            let role: String
            /// The roles of the organisation's app, this person's selected.
            let roles: [Choice]
            /// Why they may not sign in; nil while they may.
            let suspendedBecause: String?
        }

        struct Org: Sendable {
            let slug: String
            let name: String
            let app: String
            let people: [Person]
            /// nil when every one is shown (Mustache takes 0 as a value to show).
            let more: Int?
        }

        struct Choice: Sendable {
            let value: String
            let label: String
            var selected = false
        }

        let orgs: [Org]
        let orgChoices: [Choice]
        let roleChoices: [Choice]
    }

    /// How many people of one organisation the page opens.
    static let peoplePerOrg = 200

    static func peopleView(_ people: People) async throws -> PeopleView {
        let (orgs, members) = await people.runner.read { state in
            (state.orgs.values.sorted { $0.slug < $1.slug },
             Dictionary(grouping: state.people.filter { !$0.value.forgotten }, by: { $0.value.orgId }))
        }
        let suspended = await people.runner.read { state in state.people.compactMapValues(\.suspended) }
        var shown: [PeopleView.Org] = []
        for org in orgs {
            let ids = (members[org.orgId] ?? []).map(\.key).sorted()
            var list: [PeopleView.Person] = []
            for id in ids.prefix(peoplePerOrg) {
                guard let (account, personal) = try await people.opened(id) else { continue }
                let roles = people.apps.roles(of: org.app).sorted().map { PeopleView.Choice(value: $0, label: $0, selected: $0 == account.role) }
                list.append(.init(id: id, name: "\(personal.firstName) \(personal.lastName)", email: personal.email, role: account.role,
                                  roles: roles, suspendedBecause: suspended[id]))
            }
            shown.append(.init(slug: org.slug, name: org.name, app: org.app, people: list.sorted { ($0.role, $0.name) < ($1.role, $1.name) },
                               more: ids.count > peoplePerOrg ? ids.count - peoplePerOrg : nil))
        }
        let roles = Set(orgs.map(\.app)).sorted().flatMap { app in people.apps.roles(of: app).sorted().map { PeopleView.Choice(value: $0, label: "\($0) (\(app))") } }
        return PeopleView(orgs: shown, orgChoices: orgs.map { .init(value: $0.slug, label: "\($0.name) (\($0.slug), \($0.app))") }, roleChoices: roles)
    }

    struct PersonForm: Decodable {
        var org, role, email, firstName, lastName, password, confirm, reason: String?
    }

    static func addPeopleRoutes(to routes: Routes<Router<MusterRequestContext>>, people: People, templates: PageTemplates, signIn: PageSignIn) {
        @Sendable func page(_ request: Request, _ context: MusterRequestContext, status: HTTPResponse.Status = .ok, problem: String? = nil) async throws -> Response {
            try await templates.page("admin/people", title: "People", group: group, request: request, context: context,
                                     page: try await peopleView(people), status: status,
                                     problem: problem)
        }
        @Sendable func form(_ request: Request) async throws -> PersonForm {
            try await PageForms.decode(PersonForm.self, from: request, limit: 16 * 1024)
        }
        routes.get("/admin/people", access: access) { request, context in
            guard operatorName(context) != nil else { return try await signIn.form(request, context) }
            return try await page(request, context)
        }
        routes.post("/admin/people", access: access) { request, context in
            guard operatorName(context) != nil else { return try await signIn.form(request, context) }
            let f = try await form(request)
            let registration = People.Registration(orgSlug: f.org ?? "", email: f.email ?? "", firstName: f.firstName ?? "", lastName: f.lastName ?? "",
                                                   phone: nil, password: f.password ?? "", role: f.role ?? "")
            do {
                let added = try await people.addPerson(registration)
                return HTMLResponse.redirect("/admin/people?done=Added%20\(added.role)%20\(added.personId)")
            } catch let error as AccountError {
                return try await page(request, context, status: .unprocessableContent, problem: error.message)
            }
        }
        routes.post("/admin/people/:personId/role", access: access) { request, context in
            guard let by = operatorName(context) else { return try await signIn.form(request, context) }
            let personId = try context.parameters.require("personId")
            do { try await people.reassign(personId, role: try await form(request).role ?? "", by: by) } catch let error as AccountError {
                if error.code == .unknownPerson { throw APIError(.notFound, "no person \(personId.prefix(40))") }
                return try await page(request, context, status: .unprocessableContent, problem: error.message)
            }
            return HTMLResponse.redirect("/admin/people?done=Changed%20the%20role%3B%20their%20sessions%20ended")
        }
        routes.post("/admin/people/:personId/suspend", access: access) { request, context in
            guard let by = operatorName(context) else { return try await signIn.form(request, context) }
            let personId = try context.parameters.require("personId")
            do { try await people.suspend(personId, reason: try await form(request).reason ?? "", by: by) } catch let error as AccountError {
                if error.code == .unknownPerson { throw APIError(.notFound, "no person \(personId.prefix(40))") }
                return try await page(request, context, status: .unprocessableContent, problem: error.message)
            }
            return HTMLResponse.redirect("/admin/people?done=Suspended%3B%20their%20sessions%20ended")
        }
        routes.post("/admin/people/:personId/reinstate", access: access) { request, context in
            guard let by = operatorName(context) else { return try await signIn.form(request, context) }
            let personId = try context.parameters.require("personId")
            do { try await people.reinstate(personId, by: by) } catch let error as AccountError where error.code == .unknownPerson {
                throw APIError(.notFound, "no person \(personId.prefix(40))")
            }
            return HTMLResponse.redirect("/admin/people?done=Reinstated")
        }
        routes.post("/admin/people/:personId/forget", access: access) { request, context in
            guard let by = operatorName(context) else { return try await signIn.form(request, context) }
            let personId = try context.parameters.require("personId")
            guard try await form(request).confirm == "yes" else {
                return try await page(request, context, status: .unprocessableContent, problem: "Tick the box to confirm: forgetting cannot be undone.")
            }
            do { try await people.forget(personId, requestedBy: by) } catch let error as AccountError where error.code == .unknownPerson {
                throw APIError(.notFound, "no person \(personId.prefix(40))")
            }
            return HTMLResponse.redirect("/admin/people?done=Forgot%20\(personId)")
        }
    }

    /// The operator the page's rule admitted, as events name them, or nil (the sign-in form).
    package static func operatorName(_ context: MusterRequestContext) -> String? {
        if case .key(_, let keyId) = context.principal { return "console:\(keyId)" }
        return nil
    }
}
