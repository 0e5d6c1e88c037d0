public import Hummingbird
public import MusterPlatform
public import MusterRuntime

/// OFFLEASH's accounts: `/auth/register`, `/auth/login`, `/auth/validate`, `/auth/refresh`,
/// `/auth/logout`, `/users/me`. At the root, because the app's base URL has no `/api`.
public enum AuthRoutes {
    static let maxBody = 16 * 1024

    public static func add(to routes: Routes<Router<MusterRequestContext>>, people: People, policy: People.TokenPolicy) {
        routes.post("/auth/register") { request, context in
            let body = try await RequestJSON.decode(RegisterRequest.self, from: request, maxBody: maxBody)
            let registration = People.Registration(orgSlug: body.orgSlug ?? OFFLEASHApp.defaultOrg, email: body.email,
                                                   firstName: body.firstName, lastName: body.lastName, phone: body.phone,
                                                   password: body.password)
            let signedIn = try await people.register(registration, policy: policy)
            return try JSONResponse.make(.created, SignedInBody(signedIn))
        }

        routes.post("/auth/login") { request, context in
            let body = try await RequestJSON.decode(LoginRequest.self, from: request, maxBody: maxBody)
            let signedIn = try await people.login(orgSlug: body.orgSlug ?? OFFLEASHApp.defaultOrg, email: body.email,
                                                  password: body.password, address: People.clientAddress(request, context),
                                                  policy: policy)
            return try JSONResponse.make(.ok, SignedInBody(signedIn))
        }

        routes.get("/auth/validate") { request, _ in
            let claims = try await people.validate(request)
            let account = try await people.rememberedAccount(claims)
            return try JSONResponse.make(.ok, ValidateBody(expiresAt: ContractDates.string(claims.expiresAt), user: UserBody(account)))
        }

        routes.post("/auth/refresh") { request, _ in
            let body = try await RequestJSON.decode(RefreshRequest.self, from: request, maxBody: maxBody)
            guard body.refreshToken.utf8.count <= 512 else { throw APIError(.unauthorized, "invalid refresh token") }
            return try JSONResponse.make(.ok, SignedInBody(try await people.refresh(body.refreshToken, policy: policy)))
        }

        routes.post("/auth/logout") { request, _ in
            try await people.logout(try await people.validate(request))
            return Response(status: .noContent)
        }

        routes.get("/users/me") { request, _ in
            let claims = try await people.validate(request)
            return try JSONResponse.make(.ok, UserBody(try await people.account(claims)))
        }

        routes.delete("/users/me") { request, _ in
            let claims = try await people.validate(request)
            let body = try await RequestJSON.decode(ForgetRequest.self, from: request, maxBody: maxBody)
            try await people.forgetSelf(claims, password: body.password)
            return Response(status: .noContent)
        }
    }
}
