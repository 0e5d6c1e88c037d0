import Foundation
package import Hummingbird
import MusterEvents
package import MusterPlatform
package import MusterRuntime

/// The managers' console at `/field`, for a manager of a field company (signed in with their
/// account; no key opens it): time waiting for approval with its geofence flags (approve one or
/// many), conflicts side by side (keep the server's value or take the phone's), projects (create,
/// edit the geofence's centre and radius, staff them), the crew (invite by email through the
/// invitations machinery: the invited person joins with the code), the week's timesheet as CSV, and a live
/// list of what phones sync. Every action goes through `FieldSync` as the app's API does: the same
/// events, the same rules, another company's things are 404.
package enum FieldConsole {
    static let group = PageGroup(name: "Field managers", path: "/field", nav: [
        .init("Time to approve", "/field"), .init("Conflicts", "/field/conflicts"), .init("Projects", "/field/projects"),
        .init("Crew", "/field/crew"), .init("Live", "/field/activity"),
    ])
    static let access = AccessRule.page(roles: FieldRole.manager)
    /// A console session: a working day, as the app's.
    static let policy = People.TokenPolicy(app: FieldRole.app, accessLifetime: .seconds(12 * 3600), refreshLifetime: .seconds(12 * 3600))

    package static func add(to routes: Routes<Router<MusterRequestContext>>, sync: FieldSync, people: People, invitations: Invitations,
                           keys: APIKeyDirectory, templates: PageTemplates) {
        let signIn = PageSignIn.people(group, roles: [FieldRole.manager], defaultOrg: "", policy: policy, people: people, keys: keys,
                                       templates: templates)
        signIn.add(to: routes)
        let views = FieldConsoleViews(sync: sync, people: people)
        @Sendable func page(_ template: String, _ title: String, _ request: Request, _ context: MusterRequestContext, _ view: some Sendable,
                            status: HTTPResponse.Status = .ok, problem: String? = nil, refresh: Int? = nil) async throws -> Response {
            try await templates.page(template, title: title, group: group, request: request, context: context, page: view, status: status,
                                     problem: problem, refresh: refresh)
        }

        routes.get("/field", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            return try await page("field/approvals", "Time to approve", request, context, await views.approvals(manager))
        }
        routes.post("/field/time-entries/approve", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let form = try await FieldConsoleForm.decode(request)
            guard !form.entries.isEmpty else {
                return try await page("field/approvals", "Time to approve", request, context, await views.approvals(manager),
                                      status: .unprocessableContent, problem: "Tick the entries to approve first.")
            }
            for entry in form.entries { try await sync.approve(entry: entry, by: manager) }
            return HTMLResponse.redirect("/field?done=Approved%20\(form.entries.count)%20time%20\(form.entries.count == 1 ? "entry" : "entries")")
        }

        routes.post("/field/time-entries/reject", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let form = try await FieldConsoleForm.decode(request)
            guard !form.entries.isEmpty, let reason = form.reason, !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                return try await page("field/approvals", "Time to approve", request, context, await views.approvals(manager),
                                      status: .unprocessableContent, problem: "Tick the entries to send back, and say why.")
            }
            for entry in form.entries { try await sync.reject(entry: entry, reason: reason, by: manager) }
            return HTMLResponse.redirect("/field?done=Sent%20\(form.entries.count)%20back%20to%20their%20workers")
        }

        routes.get("/field/conflicts", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            return try await page("field/conflicts", "Conflicts", request, context, try await views.conflicts(manager))
        }
        routes.post("/field/conflicts/:conflictId/resolve", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let form = try await FieldConsoleForm.decode(request)
            guard let decision = form.decision.flatMap(ConflictResolved.Decision.init(rawValue:)), decision != .edit else {
                throw FieldError(.invalidField("decision"), "decision must be keepServer or takeDevice")
            }
            try await sync.resolve(try context.parameters.require("conflictId"), decision, values: nil, by: manager, at: Date())
            return HTMLResponse.redirect("/field/conflicts?done=\(decision == .keepServer ? "Kept%20the%20server%27s%20value" : "Took%20the%20phone%27s%20value")")
        }

        routes.get("/field/projects", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            return try await page("field/projects", "Projects", request, context, await views.projects(manager))
        }
        routes.post("/field/projects", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let form = try await FieldConsoleForm.decode(request)
            let id = SecureRandom.uuidString()
            if let problem = try await views.save(form, project: id, baseVersion: 0, by: manager) {
                return try await page("field/projects", "Projects", request, context, await views.projects(manager, draft: form),
                                      status: .unprocessableContent, problem: problem)
            }
            return HTMLResponse.redirect("/field/projects/\(id)?done=Created")
        }
        routes.get("/field/projects/:projectId", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let view = try await views.project(try context.parameters.require("projectId"), manager)
            return try await page("field/project", view.name, request, context, view)
        }
        routes.post("/field/projects/:projectId", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let id = try context.parameters.require("projectId")
            let current = try await views.project(id, manager)
            let form = try await FieldConsoleForm.decode(request)
            if let problem = try await views.save(form, project: current.id, baseVersion: current.version, by: manager) {
                return try await page("field/project", current.name, request, context, current, status: .unprocessableContent, problem: problem)
            }
            return HTMLResponse.redirect("/field/projects/\(current.id)?done=Saved")
        }
        routes.post("/field/projects/:projectId/members", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let id = try context.parameters.require("projectId")
            let form = try await FieldConsoleForm.decode(request)
            try await sync.assign(form.person ?? "", to: id, true, by: manager, people: people)
            return HTMLResponse.redirect("/field/projects/\(id.lowercased())?done=Added%20to%20the%20crew")
        }
        routes.post("/field/projects/:projectId/members/:personId/remove", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let id = try context.parameters.require("projectId")
            try await sync.assign(try context.parameters.require("personId"), to: id, false, by: manager, people: people)
            return HTMLResponse.redirect("/field/projects/\(id.lowercased())?done=Removed%20from%20the%20crew")
        }

        routes.get("/field/crew", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            return try await page("field/crew", "Crew", request, context, await views.crew(manager))
        }
        routes.post("/field/crew/invite", access: access) { request, context in
            guard let manager = manager(context), case .person(let signedIn)? = context.caller.page.value else {
                return try await signIn.form(request, context)
            }
            let form = try await FieldConsoleForm.decode(request)
            let role = form.role.flatMap(FieldRole.init(rawValue:)) ?? .worker
            do {
                try await invitations.invite(AccessClaims(signedIn), contact: try Invitations.contact(email: form.email, phone: nil), role: role.rawValue)
            } catch let error as InvitationError {
                return try await page("field/crew", "Crew", request, context, await views.crew(manager), status: .unprocessableContent, problem: error.message)
            }
            return HTMLResponse.redirect("/field/crew?done=Invitation%20sent")
        }

        routes.get("/field/timesheet.csv", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            return FieldRoutes.timesheetCSV(try await FieldRoutes.timesheet(of: manager, week: try FieldRoutes.week(request), sync: sync, people: people))
        }
        routes.get("/field/expenses.csv", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            let (week, lines) = await sync.expenses(of: manager, week: try FieldRoutes.week(request))
            var names = NameBook(people: people)
            var text = CSVRow.line(["week", "worker", "person_id", "project", "project_id", "expense_id", "date", "amount", "currency",
                                    "category", "notes", "receipt"])
            for line in lines {
                text += CSVRow.line([week.description, await names.name(line.personId), line.personId, line.projectName, line.projectId,
                                     line.expenseId, line.date, line.amount, line.currency, line.category, line.notes, line.receipt ? "yes" : "no"])
            }
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8; header=present",
                                                   .contentDisposition: "attachment; filename=\"expenses-\(week).csv\""],
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        routes.get("/field/activity", access: access) { request, context in
            guard let manager = manager(context) else { return try await signIn.form(request, context) }
            // No script: the page loads itself again every 10 seconds while it is open.
            return try await page("field/activity", "Live", request, context, await views.activity(manager), refresh: 10)
        }
    }

    /// The manager the page's rule admitted, or nil (the sign-in form).
    static func manager(_ context: MusterRequestContext) -> FieldPerson? {
        guard case .person(_, let org, let personId, let role) = context.principal else { return nil }
        return FieldPerson(personId: personId, orgId: org, role: role)
    }
}

/// Every field the console's forms send (each form sends some).
struct FieldConsoleForm: Decodable {
    var entries: [String] = []
    var decision, person, email, role, reason: String?
    var name, address, latitude, longitude, radiusMeters, startDate, endDate: String?

    enum CodingKeys: String, CodingKey {
        case entries
        case decision, person, email, role, reason, name, address, latitude, longitude, radiusMeters, startDate, endDate
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        entries = (try? c.decodeIfPresent([String].self, forKey: .entries)) ?? (try? c.decodeIfPresent(String.self, forKey: .entries)).map { [$0] } ?? []
        decision = try c.decodeIfPresent(String.self, forKey: .decision)
        person = try c.decodeIfPresent(String.self, forKey: .person)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        role = try c.decodeIfPresent(String.self, forKey: .role)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        address = try c.decodeIfPresent(String.self, forKey: .address)
        latitude = try c.decodeIfPresent(String.self, forKey: .latitude)
        longitude = try c.decodeIfPresent(String.self, forKey: .longitude)
        radiusMeters = try c.decodeIfPresent(String.self, forKey: .radiusMeters)
        startDate = try c.decodeIfPresent(String.self, forKey: .startDate)
        endDate = try c.decodeIfPresent(String.self, forKey: .endDate)
    }

    static func decode(_ request: Request) async throws -> FieldConsoleForm {
        try await PageForms.decode(FieldConsoleForm.self, from: request)
    }
}
