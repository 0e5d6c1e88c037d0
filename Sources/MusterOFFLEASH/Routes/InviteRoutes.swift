package import Hummingbird
package import MusterPlatform
package import MusterRuntime

/// Invitations: `/walker/invite` (a business's owners and admins invite walkers), `/client/invite`
/// (its walkers too invite customers) and `/walker/join-tenant` (the invited person joins with the
/// code). Sending and joining are `Invitations`' (MusterPlatform); who may invite whom is OFFLEASH's rule.
package enum InviteRoutes {
    static let maxBody = 4 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks, invitations: Invitations) {
        let invites: [(path: String, role: OFFLEASHRole, inviters: AccessRule)] = [
            ("/walker/invite", .walker, .person(OFFLEASHRole.admin)),
            ("/client/invite", .customer, .person(OFFLEASHRole.walker, .admin)),
        ]
        for (path, role, inviters) in invites {
            routes.post(path, access: inviters) { request, context in
                let claims = try context.claims()
                let body = try await RequestJSON.decode(InviteRequest.self, from: request, maxBody: maxBody)
                try await invitations.invite(claims, contact: try Invitations.contact(email: body.email, phone: body.phone), role: role.rawValue)
                return try JSONResponse.make(.ok, InviteSentBody())
            }
        }

        routes.post("/walker/join-tenant", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(JoinTenantRequest.self, from: request, maxBody: maxBody)
            let joined = try await invitations.accept(claims, code: body.inviteToken)
            return try JSONResponse.make(.ok, JoinedTenantBody(tenantName: joined.orgName, message: "Welcome to \(joined.orgName)"))
        }
    }
}
