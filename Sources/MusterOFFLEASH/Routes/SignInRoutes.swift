import Foundation
package import Hummingbird
package import MusterPlatform
package import MusterRuntime

/// Signing in with Apple, Google or a phone number, and the person's linked sign-in methods:
/// `/auth/apple`, `/auth/google`, `/auth/phone/send-code`, `/auth/phone/verify`, `/users/me/identities`.
package enum SignInRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, people: People, policy: People.TokenPolicy,
                           tokens: ProviderTokens, codes: PhoneCodes) {
        for provider in [IdentityProvider.apple, .google] {
            routes.post("/auth/\(provider.rawValue)", access: .anyone) { request, _ in
                let body = try await RequestJSON.decode(ProviderSignInRequest.self, from: request, maxBody: maxBody)
                let account = try await tokens.verify(body.idToken, provider: provider, nonce: body.nonce)
                let signedIn = try await people.signIn(with: account, firstName: body.firstName, lastName: body.lastName,
                                                       orgSlug: body.orgSlug ?? OFFLEASHApp.defaultOrg, policy: policy)
                return try JSONResponse.make(.ok, SignedInBody(signedIn))
            }
        }
        routes.post("/auth/phone/send-code", access: .anyone) { request, context in
            let body = try await RequestJSON.decode(SendCodeRequest.self, from: request, maxBody: maxBody)
            // Only into one of OFFLEASH's businesses (404 otherwise, and no text is sent).
            _ = try await people.organisation(body.orgSlug ?? OFFLEASHApp.defaultOrg, app: policy.app)
            let expires = try await codes.send(to: body.phone.trimmingCharacters(in: .whitespaces), app: policy.app) { code in
                "Your OFFLEASH code is \(code) and expires in 10 minutes."
            }
            return try JSONResponse.make(.ok, CodeSent(expiresAt: ContractDates.string(expires)))
        }
        routes.post("/auth/phone/verify", access: .anyone) { request, context in
            let body = try await RequestJSON.decode(VerifyCodeRequest.self, from: request, maxBody: maxBody)
            let phone = body.phone.trimmingCharacters(in: .whitespaces)
            try await codes.verify(body.code, for: phone, app: policy.app)
            let account = ProviderAccount(provider: .phone, subject: phone, email: nil, emailVerified: false)
            let signedIn = try await people.signIn(with: account, phone: phone, firstName: nil, lastName: nil,
                                                   orgSlug: body.orgSlug ?? OFFLEASHApp.defaultOrg, policy: policy)
            return try JSONResponse.make(.ok, PhoneSignedInBody(signedIn, phone: phone))
        }
        routes.get("/users/me/identities", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, IdentityList(identities: try await people.identities(claims).map(IdentityBody.init)),
                                         headers: [.cacheControl: "private, no-store"])
        }
        @Sendable func unlink(_ context: MusterRequestContext, _ identityId: String) async throws -> Response {
            let claims = try context.claims()
            try await people.unlinkIdentity(claims, identityId: identityId)
            return Response(status: .noContent)
        }
        routes.delete("/users/me/identities/{id}", access: .offleashPerson) { _, context in try await unlink(context, try context.parameters.require("id")) }
        // `google` is the link route's own path: its DELETE is the {id} route's, named so that an
        // Allow header lists what the description says (no identity has the id `google`: 404).
        routes.delete("/users/me/identities/google", access: .offleashPerson) { _, context in try await unlink(context, "google") }
        routes.post("/users/me/identities/google", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(LinkGoogleRequest.self, from: request, maxBody: maxBody)
            let account = try await tokens.verify(body.idToken, provider: .google)
            return try JSONResponse.make(.ok, IdentityLinkedBody(identity: IdentityBody(try await people.linkIdentity(claims, account))))
        }
    }
}
