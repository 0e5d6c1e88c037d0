import Foundation
import HTTPTypes
package import Hummingbird
import MusterEvents
import MusterLog
package import MusterPlatform
package import MusterRuntime
import NIOCore
import Synchronization

/// OFFLEASH's accounts: `/auth/register`, `/auth/login`, `/auth/validate`, `/auth/refresh`,
/// `/auth/logout`, `/users/me` (and its profile and password changes). At the root, because the app's base URL has no `/api`.
package enum AuthRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, people: People, policy: People.TokenPolicy) {
        routes.post("/auth/register", access: .anyone) { request, context in
            let body = try await RequestJSON.decode(RegisterRequest.self, from: request, maxBody: maxBody)
            let registration = People.Registration(orgSlug: body.orgSlug ?? OFFLEASHApp.defaultOrg, email: body.email,
                                                   firstName: body.firstName, lastName: body.lastName, phone: body.phone,
                                                   password: body.password)
            let signedIn = try await people.register(registration, policy: policy)
            return try JSONResponse.make(.created, SignedInBody(signedIn))
        }

        routes.post("/auth/login", access: .anyone) { request, context in
            let body = try await RequestJSON.decode(LoginRequest.self, from: request, maxBody: maxBody)
            let signedIn = try await people.login(orgSlug: body.orgSlug ?? OFFLEASHApp.defaultOrg, email: body.email,
                                                  password: body.password, address: people.clientAddress(request, context),
                                                  policy: policy)
            return try JSONResponse.make(.ok, SignedInBody(signedIn))
        }

        let answers = CheckpointAnswers()
        routes.get("/auth/validate", access: .offleashPerson) { _, context in
            let person = try context.person()
            if let bytes = answers.answer(person) { return CheckpointAnswers.response(bytes) }
            let account = try await people.rememberedAccount(AccessClaims(person))
            let bytes = ByteBuffer(bytes: try JSONResponse.encoder.encode(ValidateBody(expiresAt: ContractDates.string(person.expiresAt),
                                                                                       user: UserBody(account))))
            answers.keep(bytes, for: person)
            return CheckpointAnswers.response(bytes)
        }

        routes.post("/auth/refresh", access: .anyone) { request, _ in
            let body = try await RequestJSON.decode(RefreshRequest.self, from: request, maxBody: maxBody)
            guard body.refreshToken.utf8.count <= 512 else { throw APIError(.unauthorized, "invalid refresh token") }
            return try JSONResponse.make(.ok, SignedInBody(try await people.refresh(body.refreshToken, policy: policy)))
        }

        routes.post("/auth/logout", access: .offleashPerson) { _, context in
            try await people.logout(try context.claims())
            return Response(status: .noContent)
        }

        routes.get("/users/me", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, UserBody(try await people.account(claims)))
        }

        routes.put("/users/me", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(ProfileRequest.self, from: request, maxBody: maxBody)
            let change = People.ProfileChange(firstName: body.firstName, lastName: body.lastName, phone: body.phone)
            return try JSONResponse.make(.ok, UserBody(try await people.updateProfile(claims, change)))
        }

        routes.put("/users/me/password", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(PasswordChangeRequest.self, from: request, maxBody: maxBody)
            try await people.changePassword(claims, current: body.currentPassword ?? "", new: body.newPassword,
                                            address: people.clientAddress(request, context))
            return try JSONResponse.make(.ok, PasswordChanged())
        }

        // The app decides the customer or walker tabs from the default membership. Read on every
        // launch and sign-in like /auth/validate, and kept the same way: the answer can only change
        // with an event of the people fold.
        let contexts = CheckpointAnswers()
        routes.get("/contexts", access: .offleashPerson) { _, context in
            let person = try context.person()
            if let bytes = contexts.answer(person) { return CheckpointAnswers.response(bytes) }
            let claims = AccessClaims(person)
            let account = try await people.rememberedAccount(claims)
            let memberships = await people.memberships(claims)
            let bytes = ByteBuffer(bytes: try JSONResponse.encoder.encode(ContextsBody(account: account, memberships: memberships.map(MembershipBody.init),
                                                                                       defaultMembershipId: memberships.first { $0.orgId == claims.org }?.id)))
            contexts.keep(bytes, for: person)
            return CheckpointAnswers.response(bytes)
        }

        // Every walker sign-in switches to its business. The caller's own membership keeps the
        // token it came with (already scoped to that organisation); any other id is unknown (404,
        // never 401: the app would sign the person out).
        routes.post("/contexts/switch", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(SwitchRequest.self, from: request, maxBody: maxBody)
            let (signedIn, membership) = try await people.switchTo(claims, membershipId: body.membershipId, policy: policy)
            // The caller's own membership: the token it came with still serves.
            let token = try signedIn?.accessToken ?? context.person().accessToken
            return try JSONResponse.make(.ok, SwitchedBody(token: token, membership: MembershipBody(membership)))
        }

        // A new walker's business: the organisation and the caller as its owner. The app keeps its
        // token and switches on its next sign-in (or at once, from walker onboarding).
        routes.post("/walker/create-tenant", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(CreateTenantRequest.self, from: request, maxBody: maxBody)
            let (org, membership) = try await people.createBusiness(claims, name: body.businessName, slug: body.slug ?? "",
                                                                 ownerRole: OFFLEASHRole.owner.rawValue, ownerTitle: "Business Owner")
            return try JSONResponse.make(.created, TenantCreated(id: org.orgId, name: org.name, slug: org.slug, membershipId: membership.id))
        }

        routes.post("/contexts/join-as-customer/{org_slug}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let slug = try context.parameters.require("org_slug")
            guard let org = await people.runner.read({ state in state.orgBySlug[slug].flatMap { state.orgs[$0] } }), org.app == OFFLEASHApp.appName else {
                throw APIError(.notFound, "No business \(slug.prefix(64))")
            }
            return try JSONResponse.make(.ok, JoinedBody(membership: MembershipBody(try await people.grantMembership(claims, orgId: org.orgId, role: OFFLEASHRole.customer.rawValue))))
        }

        routes.delete("/users/me", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(ForgetRequest.self, from: request, maxBody: maxBody)
            try await people.forgetSelf(claims, password: body.password)
            return Response(status: .noContent)
        }
    }
}
