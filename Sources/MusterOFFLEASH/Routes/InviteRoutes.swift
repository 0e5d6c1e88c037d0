public import Hummingbird
public import MusterPlatform
public import MusterRuntime

/// Invitations: `/walker/invite` (a business's owners and admins invite walkers), `/client/invite`
/// (its walkers too invite customers) and `/walker/join-tenant` (the invited person joins with the
/// code). Sending and joining are `Invitations`' (MusterPlatform); who may invite whom is OFFLEASH's rule.
public enum InviteRoutes {
    static let maxBody = 4 * 1024

    public static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks, invitations: Invitations) {
        for (path, role, inviters) in [("/walker/invite", "walker", ["admin"]), ("/client/invite", "customer", ["walker", "admin"])] {
            routes.post(path) { request, _ in
                let claims = try await walks.people.validate(request, app: OFFLEASHApp.appName)
                try walks.requireRole(claims, inviters)
                let body = try await RequestJSON.decode(InviteRequest.self, from: request, maxBody: maxBody)
                try await invitations.invite(claims, contact: try Invitations.contact(email: body.email, phone: body.phone), role: role)
                return try JSONResponse.make(.ok, InviteSentBody())
            }
        }

        routes.post("/walker/join-tenant") { request, _ in
            let claims = try await walks.people.validate(request, app: OFFLEASHApp.appName)
            let body = try await RequestJSON.decode(JoinTenantRequest.self, from: request, maxBody: maxBody)
            let joined = try await invitations.accept(claims, code: body.inviteToken)
            return try JSONResponse.make(.ok, JoinedTenantBody(tenantName: joined.orgName, message: "Welcome to \(joined.orgName)"))
        }
    }
}
