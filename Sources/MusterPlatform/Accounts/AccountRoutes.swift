import AsyncHTTPClient
import Foundation
package import Hummingbird
import HTTPTypes
import MusterEvents
import NIOCore
package import MusterRuntime

/// Every app's sign-in, under `/api/{app}/auth`, from the app's declaration (`AppAccounts`), in
/// the request and answer shapes OFFLEASH's app first spoke (`{token, refresh_token, expires_at,
/// user}`):
/// - `POST …/register` (where people sign themselves up): 202 whatever the address, and a code
///   by mail; `POST …/verify-email` with it signs the new person in.
/// - `POST …/login`, `POST …/apple` (where the app allows Apple), `POST …/refresh`,
///   `POST …/logout`, `GET …/validate`.
/// - `GET …/sessions`, `DELETE …/sessions/{id}`, `DELETE …/sessions` (every one but this).
/// - `POST …/password-reset` (202 whatever the address) and `…/password-reset/confirm`.
/// - `GET /api/{app}/me/export`: everything held about the caller.
/// A sign-in that proves a registered installation (`X-Device-Id`, `X-Device-Secret`) binds the
/// session's refresh token to it: it then refreshes only with that installation's secret.
package enum AccountRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, accounts: AppAccounts, people: People,
                           recovery: AccountRecovery, devices: Devices?, tokens: ProviderTokens) {
        let prefix = accounts.prefix, policy = accounts.policy
        @Sendable func org(_ slug: String?) throws -> String {
            if let slug, !slug.isEmpty { return slug }
            guard let fallback = accounts.defaultOrg else { throw AccountError(.invalidField("org_slug"), "org_slug is required") }
            return fallback
        }
        @Sendable func device(_ context: MusterRequestContext, name: String?, platform: String?) async throws -> SessionDevice {
            if let platform, !SessionStarted.platforms.contains(platform) {
                throw AccountError(.invalidField("platform"), "platform must be one of ios, android, web")
            }
            if let name, !(1...100).contains(name.count) { throw AccountError(.invalidField("device_name"), "device_name must be 1 to 100 characters") }
            guard let devices else { return SessionDevice(name: name, platform: platform) }
            let bound = await devices.provenInstallation(context.caller.installation, app: accounts.app)
            if context.caller.installation != nil, bound == nil {
                throw AccountError(.invalidToken, "X-Device-Id and X-Device-Secret name no installation of \(accounts.app)")
            }
            return SessionDevice(deviceId: bound, name: name, platform: platform)
        }
        /// Whether the install a sign-in names may be linked: the app links installs and its key
        /// stands behind the request. Asked before the session starts, so a refusal leaves none behind.
        @Sendable func mayLink(_ installId: String?, _ context: MusterRequestContext) throws {
            guard installId != nil else { return }
            guard let install = accounts.installLink else {
                throw AccountError(.invalidField("install_id"), "\(accounts.app) links no installs at sign-in")
            }
            _ = try install.access.admit(context.caller)
        }
        /// Links it, once the person is signed in.
        @Sendable func link(_ installId: String?, to personId: String) async throws {
            guard let installId, let install = accounts.installLink else { return }
            try await install.link(installId, personId)
        }

        if accounts.methods.contains(.password) {
            if policy.signUpRole != nil {
                routes.post("\(prefix)/register", access: .anyone) { request, _ in
                    let body = try await RequestJSON.decode(RegisterRequest.self, from: request, maxBody: maxBody)
                    try await recovery.signUp(People.Registration(orgSlug: try org(body.orgSlug), email: body.email, firstName: body.firstName,
                                                                  lastName: body.lastName, phone: body.phone, password: body.password),
                                              accounts: accounts)
                    return try JSONResponse.make(.accepted, AcceptedBody(status: "verification_sent",
                                                                         message: "If the address can be used, a code is on its way to it: enter it to finish signing up"))
                }
                routes.post("\(prefix)/verify-email", access: .anyone) { request, context in
                    let body = try await RequestJSON.decode(VerifyEmailRequest.self, from: request, maxBody: maxBody)
                    try mayLink(body.installId, context)
                    let signedIn = try await recovery.verify(orgSlug: try org(body.orgSlug), email: body.email, code: body.code, accounts: accounts,
                                                             device: try await device(context, name: body.deviceName, platform: body.platform))
                    try await link(body.installId, to: signedIn.account.personId)
                    return try JSONResponse.make(.ok, SignedInBody(signedIn))
                }
            }
            routes.post("\(prefix)/login", access: .anyone) { request, context in
                let body = try await RequestJSON.decode(LoginRequest.self, from: request, maxBody: maxBody)
                try mayLink(body.installId, context)
                let session = try await device(context, name: body.deviceName, platform: body.platform)
                let (account, personal) = try await people.checkPassword(orgSlug: try org(body.orgSlug), email: body.email, password: body.password,
                                                                         address: people.clientAddress(request, context), policy: policy)
                if accounts.secondFactor, personal.secondFactor?.confirmed == true {
                    let (challenge, expires) = try await SecondFactor(people: people).challenge(personId: account.personId, app: accounts.app)
                    return try JSONResponse.make(.ok, SecondFactorRequired(challenge: challenge, expiresAt: ContractDates.string(expires)))
                }
                let signedIn = try await people.startSession(account, personal: personal, policy: policy, device: session)
                try await link(body.installId, to: signedIn.account.personId)
                return try JSONResponse.make(.ok, SignedInBody(signedIn))
            }
            if accounts.secondFactor { addSecondFactor(to: routes, accounts: accounts, people: people, device: device) }
            routes.post("/api/\(accounts.app)/me/email", access: accounts.person) { request, context in
                let body = try await RequestJSON.decode(EmailChangeRequest.self, from: request, maxBody: maxBody)
                try await recovery.requestEmailChange(try context.claims(), newEmail: body.newEmail, password: body.password ?? "",
                                                      address: people.clientAddress(request, context), accounts: accounts)
                return try JSONResponse.make(.accepted, AcceptedBody(status: "code_sent",
                                                                     message: "If the new address can be used, a code is on its way to it; your old address was told"))
            }
            routes.post("/api/\(accounts.app)/me/email/confirm", access: accounts.person) { request, context in
                let body = try await RequestJSON.decode(EmailChangeRequest.self, from: request, maxBody: maxBody)
                let view = try await recovery.confirmEmailChange(try context.claims(), newEmail: body.newEmail, code: body.code ?? "", accounts: accounts)
                return try JSONResponse.make(.ok, UserBody(view))
            }
            if accounts.joinsByInvitation {
                routes.post("\(prefix)/join", access: .anyone) { request, context in
                    let body = try await RequestJSON.decode(JoinRequest.self, from: request, maxBody: maxBody)
                    let signedIn = try await Invitations.join(people, code: body.code, email: body.email, firstName: body.firstName,
                                                              lastName: body.lastName, password: body.password, policy: policy,
                                                              device: try await device(context, name: body.deviceName, platform: body.platform))
                    return try JSONResponse.make(.created, SignedInBody(signedIn))
                }
            }
            routes.post("\(prefix)/password-reset", access: .anyone) { request, _ in
                let body = try await RequestJSON.decode(ResetRequest.self, from: request, maxBody: maxBody)
                try await recovery.requestReset(orgSlug: try org(body.orgSlug), email: body.email, accounts: accounts)
                return try JSONResponse.make(.accepted, AcceptedBody(status: "reset_sent",
                                                                     message: "If the address has an account, a code is on its way to it"))
            }
            routes.post("\(prefix)/password-reset/confirm", access: .anyone) { request, _ in
                let body = try await RequestJSON.decode(ResetConfirmRequest.self, from: request, maxBody: maxBody)
                try await recovery.confirmReset(orgSlug: try org(body.orgSlug), email: body.email, code: body.code, newPassword: body.newPassword,
                                                accounts: accounts)
                return try JSONResponse.make(.ok, AcceptedBody(status: "password_changed", message: "Password changed; sign in again everywhere"))
            }
        }
        if accounts.methods.contains(.apple) {
            routes.post("\(prefix)/apple", access: .anyone) { request, context in
                let body = try await RequestJSON.decode(ProviderSignInRequest.self, from: request, maxBody: maxBody)
                let account = try await tokens.verify(body.idToken, provider: .apple, nonce: body.nonce)
                let signedIn = try await people.signIn(with: account, firstName: body.firstName, lastName: body.lastName,
                                                       orgSlug: try org(body.orgSlug), policy: policy,
                                                       device: try await device(context, name: body.deviceName, platform: body.platform))
                return try JSONResponse.make(.ok, SignedInBody(signedIn))
            }
        }
        routes.post("\(prefix)/refresh", access: .anyone) { request, context in
            let body = try await RequestJSON.decode(RefreshRequest.self, from: request, maxBody: maxBody)
            guard body.refreshToken.utf8.count <= 512 else { throw AccountError(.invalidToken, "invalid refresh token") }
            let installation = await devices?.provenInstallation(context.caller.installation, app: accounts.app)
            return try JSONResponse.make(.ok, SignedInBody(try await people.refresh(body.refreshToken, policy: policy, installation: installation)))
        }
        routes.post("\(prefix)/logout", access: accounts.person) { _, context in
            try await people.logout(try context.claims())
            return Response(status: .noContent)
        }
        // Asked on every launch with the same token: the answer is kept until the people fold moves.
        let answers = CheckpointAnswers()
        routes.get("\(prefix)/validate", access: accounts.person) { _, context in
            let person = try context.person()
            if let bytes = answers.answer(person) { return CheckpointAnswers.response(bytes) }
            let account = try await people.rememberedAccount(AccessClaims(person))
            let bytes = ByteBuffer(bytes: try JSONResponse.encoder.encode(ValidateBody(expiresAt: ContractDates.string(person.expiresAt),
                                                                                       user: UserBody(account))))
            answers.keep(bytes, for: person)
            return CheckpointAnswers.response(bytes)
        }
        routes.get("\(prefix)/sessions", access: accounts.person) { _, context in
            try JSONResponse.make(.ok, SessionsBody(await people.sessions(try context.claims())), headers: [.cacheControl: "private, no-store"])
        }
        routes.delete("\(prefix)/sessions/{id}", access: accounts.person) { _, context in
            try await people.endSession(try context.claims(), sessionId: try context.parameters.require("id"))
            return Response(status: .noContent)
        }
        routes.delete("\(prefix)/sessions", access: accounts.person) { _, context in
            try JSONResponse.make(.ok, EndedBody(ended: try await people.endOtherSessions(try context.claims())))
        }
        routes.get("/api/\(accounts.app)/me/export", access: accounts.person) { _, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, try await export(claims, accounts: accounts, people: people, devices: devices),
                                         headers: [.cacheControl: "private, no-store",
                                                   .contentDisposition: "attachment; filename=\"\(accounts.app)-export.json\""])
        }
    }

    /// A second factor for password sign-ins: set it up (the secret and its `otpauth://` URI), turn
    /// it on with a first code (answering ten recovery codes, once), turn it off with a code; a
    /// password sign-in then answers a challenge, which `…/login/second-factor` trades with a code
    /// (each code works once) for the tokens.
    static func addSecondFactor(to routes: Routes<Router<MusterRequestContext>>, accounts: AppAccounts, people: People,
                                device: @escaping @Sendable (MusterRequestContext, String?, String?) async throws -> SessionDevice) {
        let prefix = accounts.prefix, factor = SecondFactor(people: people)
        routes.post("\(prefix)/second-factor", access: accounts.person) { _, context in
            let enrollment = try await factor.begin(try context.claims(), issuer: accounts.displayName)
            return try JSONResponse.make(.ok, SecondFactorEnrollment(secret: enrollment.secret, otpauthURI: enrollment.uri),
                                         headers: [.cacheControl: "no-store"])
        }
        routes.post("\(prefix)/second-factor/confirm", access: accounts.person) { request, context in
            let body = try await RequestJSON.decode(CodeRequest.self, from: request, maxBody: maxBody)
            let codes = try await factor.confirm(try context.claims(), code: body.code, address: people.clientAddress(request, context))
            return try JSONResponse.make(.ok, RecoveryCodes(recoveryCodes: codes), headers: [.cacheControl: "no-store"])
        }
        routes.post("\(prefix)/second-factor/disable", access: accounts.person) { request, context in
            let body = try await RequestJSON.decode(CodeRequest.self, from: request, maxBody: maxBody)
            try await factor.remove(try context.claims(), code: body.code, address: people.clientAddress(request, context))
            return Response(status: .noContent)
        }
        routes.post("\(prefix)/login/second-factor", access: .anyone) { request, context in
            let body = try await RequestJSON.decode(SecondFactorSignInRequest.self, from: request, maxBody: maxBody)
            let personId = try await factor.person(in: body.challenge, app: accounts.app)
            try await factor.check(personId: personId, code: body.code, address: people.clientAddress(request, context))
            guard let (account, personal) = try await people.opened(personId) else { throw AccountError(.invalidToken, "that account is gone") }
            let session = try await device(context, body.deviceName, body.platform)
            return try JSONResponse.make(.ok, SignedInBody(try await people.startSession(account, personal: personal, policy: accounts.policy,
                                                                                          device: session)))
        }
    }

    static func export(_ claims: AccessClaims, accounts: AppAccounts, people: People, devices: Devices?) async throws -> ExportBody {
        guard let (account, personal) = try await people.opened(claims.personId) else { throw AccountError(.invalidToken, "session has ended") }
        let identities = try await people.identities(claims).filter { $0.provider != "email" }.map {
            ExportBody.Identity(provider: $0.provider, subject: $0.subject, email: $0.email, phone: $0.phone, linkedAt: ContractDates.seconds($0.createdAt))
        }
        let installed = await (devices?.devices(of: claims.personId, app: accounts.app) ?? []).map {
            ExportBody.Device(id: $0.deviceId, platform: $0.platform, bundleId: $0.bundleId, registeredAt: ContractDates.seconds($0.registeredAt),
                              topics: $0.settings.topics)
        }
        return ExportBody(exportedAt: ContractDates.string(Date()), app: accounts.app, profile: UserBody(People.view(account, personal)),
                          emailVerified: personal.emailVerified, identities: identities, sessions: SessionsBody(await people.sessions(claims)),
                          devices: installed, appData: try await accounts.export(claims))
    }
}

extension AccountRoutes {
    /// Adds `accounts`' routes to the role a process is composing, over its shared people,
    /// devices, mail outbox and Apple's keys: what an app with people calls from its
    /// `add(to:role:environment:)`, in the role that serves its people. Without
    /// `bindsInstallations` (people who sign in from a browser) no devices fold is run for it.
    package static func add(_ accounts: AppAccounts, to parts: inout RoleParts, environment: MusterEnvironment,
                           bindsInstallations: Bool = true) {
        let people = People.shared(in: environment)
        let devices = bindsInstallations ? Devices.shared(in: environment) : nil
        let outbox = MailOutbox.shared(in: environment)
        environment.runOnce(outbox) // sign-up and reset mails leave from it, after their answers
        let recovery = environment.shared {
            AccountRecovery.shared(people: people, outbox: outbox, replicas: environment.configuration.streamReplicas)
        }
        let signIn = environment.configuration[SignInSettings.self]
        let providers = ProviderTokens.providers(keysApple: signIn.appleKeysURL, audiencesApple: accounts.appleAudiences,
                                                 keysGoogle: signIn.googleKeysURL, audiencesGoogle: [])
        let tokens = ProviderTokens(apple: providers.apple, google: providers.google, http: .shared)
        parts.appends([AccountChanged.self, AccountMoved.self, SessionStarted.self, SessionRefreshed.self, SessionRevoked.self])
        if accounts.policy.signUpRole != nil { parts.appends([AccountRegistered.self]) }
        if accounts.methods.contains(.apple) { parts.appends([AccountRegistered.self, IdentityLinked.self]) }
        parts.routes.append { add(to: $0, accounts: accounts, people: people, recovery: recovery, devices: devices, tokens: tokens) }
    }
}
