import Foundation
package import Hummingbird
import MusterEvents
package import MusterPlatform
package import MusterRuntime

/// The business console at `/offleash`, for a business's owner and admins (signed in with their
/// account): requests to accept or decline, the day and the week of every walker, payments with
/// refunds (through the payment provider, as the app's refund does), services and prices,
/// walkers (and inviting one by email) and customers with their pets. Every action is the app's
/// own domain call (`Walks`, `Invitations`): the same events, the same rules; another business's
/// walk or payment is 404, and a walker or customer is refused the console.
package enum BusinessConsole {
    static let group = PageGroup(name: "OFFLEASH business", path: "/offleash", nav: [
        .init("Requests and today", "/offleash"), .init("Week", "/offleash/week"), .init("Payments", "/offleash/payments"),
        .init("Services", "/offleash/services"), .init("People", "/offleash/people"),
    ])
    static let access = AccessRule.page(roles: OFFLEASHRole.admin)
    static let policy = People.TokenPolicy(app: OFFLEASHApp.appName, accessLifetime: .seconds(8 * 3600), refreshLifetime: .seconds(8 * 3600))

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks, invitations: Invitations, people: People,
                           keys: APIKeyDirectory, templates: PageTemplates) {
        let signIn = PageSignIn.people(group, roles: [OFFLEASHRole.admin], defaultOrg: "", policy: policy, people: people, keys: keys,
                                       templates: templates)
        signIn.add(to: routes)
        let views = BusinessViews(walks: walks)
        @Sendable func page(_ template: String, _ title: String, _ request: Request, _ context: MusterRequestContext, _ view: some Sendable,
                            status: HTTPResponse.Status = .ok, problem: String? = nil) async throws -> Response {
            try await templates.page(template, title: title, group: group, request: request, context: context, page: view, status: status,
                                     problem: problem)
        }

        routes.get("/offleash", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            let day = try BusinessViews.day(request.uri.queryParameters["day"].map(String.init))
            return try await page("offleash/today", "Requests and today", request, context, try await views.today(admin, day: day))
        }
        routes.get("/offleash/week", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            let day = try BusinessViews.day(request.uri.queryParameters["from"].map(String.init))
            return try await page("offleash/week", "Week", request, context, try await views.week(admin, from: day))
        }
        for (path, change, done) in [("accept", "confirmed", "Accepted"), ("decline", "cancelled", "Declined")] {
            routes.post("/offleash/bookings/:bookingId/\(path)", access: access) { request, context in
                guard let admin = admin(context) else { return try await signIn.form(request, context) }
                _ = try await walks.change(admin, bookingId: try context.parameters.require("bookingId"), to: change)
                return HTMLResponse.redirect("/offleash?done=\(done)%20the%20request")
            }
        }

        routes.get("/offleash/payments", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            return try await page("offleash/payments", "Payments", request, context, try await views.payments(admin))
        }
        routes.post("/offleash/payments/:transactionId/refund", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            let refunded = try await walks.refund(admin, transactionId: try context.parameters.require("transactionId"))
            return HTMLResponse.redirect("/offleash/payments?done=Refunded%20\(BusinessViews.money(refunded.priced.totalCents).replacingOccurrences(of: " ", with: "%20"))")
        }

        routes.get("/offleash/services", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            return try await page("offleash/services", "Services and prices", request, context, await views.services(admin))
        }
        @Sendable func saveService(_ request: Request, _ context: MusterRequestContext, id: String?) async throws -> Response {
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            let form = try await ServiceForm.decode(request)
            guard let fields = form.fields else {
                return try await page("offleash/services", "Services and prices", request, context, await views.services(admin),
                                      status: .unprocessableContent, problem: "A service needs a name, minutes (5 to 600) and a price like 25.00.")
            }
            let saved = try await walks.defineService(admin, serviceId: id, fields)
            return HTMLResponse.redirect("/offleash/services?done=Saved%20\(saved.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "the%20service")")
        }
        routes.post("/offleash/services", access: access) { request, context in try await saveService(request, context, id: nil) }
        routes.post("/offleash/services/:serviceId", access: access) { request, context in
            try await saveService(request, context, id: try context.parameters.require("serviceId"))
        }

        routes.get("/offleash/people", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            return try await page("offleash/people", "People", request, context, try await views.people(admin))
        }
        routes.post("/offleash/walkers/invite", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            let form = try await ServiceForm.decode(request)
            do {
                try await invitations.invite(admin, contact: try Invitations.contact(email: form.email, phone: nil), role: OFFLEASHRole.walker.rawValue)
            } catch let error as InvitationError {
                return try await page("offleash/people", "People", request, context, try await views.people(admin),
                                      status: .unprocessableContent, problem: error.message)
            }
            return HTMLResponse.redirect("/offleash/people?done=Invitation%20sent")
        }
    }

    /// The owner or admin the page's rule admitted, as the domain takes them, or nil (the sign-in form).
    static func admin(_ context: MusterRequestContext) -> AccessClaims? {
        guard case .person(let person)? = context.caller.page.value, case .person = context.principal else { return nil }
        return AccessClaims(person)
    }
}

/// The services form and the invitation form.
struct ServiceForm: Decodable {
    var name, description, minutes, price, active, email: String?

    static func decode(_ request: Request) async throws -> ServiceForm {
        try await PageForms.decode(ServiceForm.self, from: request, limit: 16 * 1024)
    }

    /// The service's fields, or nil when one is missing or not a number in range.
    var fields: Walks.ServiceFields? {
        guard let name = name?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
              let minutes = minutes.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), (5...600).contains(minutes),
              let price = price.flatMap({ Decimal(string: $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "$", with: "")) }),
              price >= 0, price < 100_000 else { return nil }
        let cents = NSDecimalNumber(decimal: price * 100).rounding(accordingToBehavior: nil).intValue
        return Walks.ServiceFields(name: name, description: description, durationMinutes: minutes, priceCents: cents, isActive: active != nil)
    }
}
