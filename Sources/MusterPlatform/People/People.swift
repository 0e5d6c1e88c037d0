import Crypto
package import Foundation
import MusterEvents
package import MusterLog
package import MusterNATS
package import MusterRuntime
import Synchronization
import MusterJSON

/// People for every app: registration, sign-in, sessions and their tokens, forgetting. Domain
/// only: it throws `AccountError` and knows nothing of HTTP; each app's routes speak their own
/// contract over it (OFFLEASH's `/auth/…`).
package final class People: Sendable {
    package let log: EventLog
    package let runner: ProjectionRunner<PeopleProjection>
    package let vault: PersonalDataVault
    package let signing: SigningKeyRing
    package let passwords: PasswordHasher
    package let attempts: AttemptLimiter
    /// Whose `X-Forwarded-For` names the client (`clientAddress`).
    package let trustedProxies: TrustedProxies
    /// The apps served: which may have organisations, and the roles of each app's people.
    package let apps: AppDirectory
    private let lookupSecret = Mutex<SymmetricKey?>(nil)
    /// Tokens whose signature was verified, and the fold checkpoint at which their session was last
    /// found live (bounded; cleared whole when full).
    private let verified = Mutex<[String: Verified]>([:])
    struct Verified {
        var claims: AccessClaims
        var liveAt: UInt64
    }
    /// People recently signed in or shown, opened: validation answers with the person without
    /// reading their key again. Served only after the session was found live, so a forgotten
    /// person's entry is never answered; bounded like the token cache.
    private let opened = Mutex<[String: AccountView]>([:])
    /// One business started by a person at a time, so that the count each start reads includes the one before.
    let founders = OnePerKey()
    static let verifiedLimit = 50_000
    /// How long a write waits for this process's fold to show it, so the next request sees it.
    static let settle: Duration = .seconds(3)

    /// The longest an app's access token may live: signing keys verify for this long after they
    /// are retired, so no token outlives the key that checks it.
    package static let longestAccessLifetime: Duration = .seconds(30 * 86_400)

    package init(log: EventLog, runner: ProjectionRunner<PeopleProjection>, passwords: PasswordHasher, apps: AppDirectory,
                attempts: AttemptLimiter = AttemptLimiter(), trustedProxies: TrustedProxies = TrustedProxies(),
                keyMirror: KeyValueMirror? = nil) {
        self.trustedProxies = trustedProxies
        self.apps = apps
        self.log = log
        self.runner = runner
        self.passwords = passwords
        self.attempts = attempts
        vault = PersonalDataVault(jetStream: log.jetStream, replicas: log.configuration.replicas, mirror: keyMirror)
        signing = SigningKeyRing(jetStream: log.jetStream, replicas: log.configuration.replicas, verifyFor: Self.longestAccessLifetime)
    }

    // MARK: Organisations

    /// Creates an organisation, or returns the existing one with the same slug and app.
    @discardableResult
    package func createOrganisation(slug: String, app: String, name: String) async throws -> PeopleProjection.Org {
        if let existing = await runner.read({ state in state.orgBySlug[slug].flatMap { state.orgs[$0] } }) {
            guard existing.app == app else { throw AccountError(.invalidField("slug"), "organisation \(slug) belongs to \(existing.app)") }
            return existing
        }
        guard apps.clientApps.contains(app) else {
            throw AccountError(.invalidField("app"), "\(app.prefix(32)) is not one of \(apps.clientApps.sorted().joined(separator: ", "))")
        }
        let created = OrgCreated(orgId: SecureRandom.uuidString(), slug: slug, app: app, name: name)
        let result = try await log.append(created, options: AppendOptions(idempotencyKey: "org-\(slug)"))
        // An operator's rare act, waited for longer than a sign-in's session: a busy fold still shows it.
        _ = await runner.waitUntilApplied(result.sequence, timeout: .seconds(10))
        guard let org = await runner.read({ state in state.orgBySlug[slug].flatMap { state.orgs[$0] } }) else {
            throw AccountError(.loading, "organisation \(slug) is still being recorded; retry shortly")
        }
        return org
    }

    // MARK: Registration and sign-in

    package struct Registration: Sendable {
        package var orgSlug: String
        package var email: String
        package var firstName: String
        package var lastName: String
        package var phone: String?
        package var password: String
        /// One of the organisation's app's roles; none: the role the app gives people who sign
        /// themselves up (`TokenPolicy.signUpRole`).
        package var role: String?

        package init(orgSlug: String, email: String, firstName: String, lastName: String, phone: String?, password: String,
                    role: String? = nil) {
            self.orgSlug = orgSlug
            self.email = email
            self.firstName = firstName
            self.lastName = lastName
            self.phone = phone
            self.password = password
            self.role = role
        }
    }

    /// What each app's sessions are like: its name and how long its tokens live.
    package struct TokenPolicy: Sendable {
        package var app: String
        package var accessLifetime: Duration
        package var refreshLifetime: Duration

        /// The role of a person who makes their own account (OFFLEASH's customers), or none where
        /// accounts are made only by an operator, a manager or an invitation.
        package var signUpRole: String?
        /// Whether a person who signed themselves up must prove their email before signing in.
        package var requiresVerifiedEmail: Bool

        package init(app: String, accessLifetime: Duration = .seconds(86_400), refreshLifetime: Duration = .seconds(30 * 86_400),
                    signUpRole: String? = nil, requiresVerifiedEmail: Bool = false) {
            self.app = app
            self.signUpRole = signUpRole
            self.requiresVerifiedEmail = requiresVerifiedEmail
            self.accessLifetime = accessLifetime
            self.refreshLifetime = refreshLifetime
        }
    }

    /// A signed-in person: tokens and who they are.
    package struct SignedIn: Sendable {
        package var accessToken: String
        package var expiresAt: Date
        package var refreshToken: String
        package var account: AccountView
    }

    /// A person as answers show them (opened from the sealed box).
    package struct AccountView: Sendable, Equatable {
        package var personId: String
        package var email: String
        package var firstName: String
        package var lastName: String
        package var phone: String?
        package var role: String
        package var orgId: String
    }

    /// Registers and signs in: the app's sign-up.
    /// Only where the app lets people sign themselves up (`policy.signUpRole`), in that role, and
    /// only into that app's organisations: another app's organisation is unknown (404).
    package func register(_ registration: Registration, policy: TokenPolicy, device: SessionDevice = SessionDevice()) async throws -> SignedIn {
        guard let role = policy.signUpRole else {
            throw AccountError(.unknownOrganisation, "\(policy.app) accounts are made by invitation, not by signing up")
        }
        var registration = registration
        registration.role = role
        let (account, personal) = try await createAccount(registration, app: policy.app)
        return try await startSession(account, personal: personal, policy: policy, device: device)
    }

    /// Registers without signing in (an operator adding a walker, say).
    package func addPerson(_ registration: Registration) async throws -> AccountView {
        let (account, personal) = try await createAccount(registration, app: nil)
        return Self.view(account, personal)
    }

    /// The person signed in to `orgSlug` with `email`, if any.
    package func personId(orgSlug: String, email: String) async throws -> String? {
        guard let org = await runner.read({ state in state.orgBySlug[orgSlug] }) else { return nil }
        let accountKey = try await self.accountKey(orgId: org, email: email)
        return await runner.read { $0.accounts[accountKey]?.personId }
    }

    /// In the organisation `registration` names, which must be `app`'s when one is given.
    /// `verified: false` marks a person who signed themselves up and has yet to prove their email.
    func createAccount(_ registration: Registration, app: String?, verified: Bool? = nil) async throws -> (PeopleProjection.Account, PersonalData) {
        guard let email = AccountRules.email(registration.email) else {
            throw AccountError(.invalidField("email"), "Please enter a valid email address")
        }
        guard !AccountRules.isReserved(email) else {
            throw AccountError(.invalidField("email"), "This address is reserved for signing in by phone; sign in with the phone number instead")
        }
        let firstName = registration.firstName.trimmingWhitespace, lastName = registration.lastName.trimmingWhitespace
        guard (1...100).contains(firstName.count) else { throw AccountError(.invalidField("first_name"), "First name is required (at most 100 characters)") }
        guard (1...100).contains(lastName.count) else { throw AccountError(.invalidField("last_name"), "Last name is required (at most 100 characters)") }
        let phone = registration.phone?.trimmingWhitespace
        if let phone, !phone.isEmpty, !Self.isPhone(phone) {
            throw AccountError(.invalidField("phone"), "Please enter a valid phone number")
        }
        if let problem = AccountRules.passwordProblem(registration.password) { throw AccountError(.invalidField("password"), problem) }
        let org = try await organisation(registration.orgSlug, app: app)
        let roles = apps.roles(of: org.app)
        guard let role = registration.role, roles.contains(role) else {
            throw AccountError(.invalidField("role"), "the role must be one of \(org.app)'s: \(roles.sorted().joined(separator: ", "))")
        }
        let accountKey = try await self.accountKey(orgId: org.orgId, email: email)
        guard await runner.read({ $0.accounts[accountKey] == nil }) else { throw AccountError(.emailTaken, "An account with this email already exists") }
        let passwordHash = try await hashing { try await passwords.hash(registration.password) }
        var personal = PersonalData(email: email, firstName: firstName, lastName: lastName,
                                    phone: phone?.isEmpty == false ? phone : nil, passwordHash: passwordHash)
        personal.emailVerified = verified
        return try await registerAccount(personal, role: role, org: org)
    }

    /// Appends the registration of checked personal data, expecting the sign-in identity to be
    /// free; a registration of the same email that won the race makes this one `.emailTaken`.
    func registerAccount(_ personal: PersonalData, role: String, org: PeopleProjection.Org) async throws -> (PeopleProjection.Account, PersonalData) {
        let accountKey = try await self.accountKey(orgId: org.orgId, email: personal.email)
        let (taken, releasedAt) = await runner.read { ($0.accounts[accountKey] != nil, $0.released[accountKey]) }
        guard !taken else { throw AccountError(.emailTaken, "An account with this email already exists") }
        let personId = SecureRandom.uuidString()
        let sealed = try await vault.seal(personal, for: personId)
        let registered = AccountRegistered(accountKey: accountKey, personId: personId, orgId: org.orgId, role: role, sealed: sealed)
        do {
            let result = try await log.append(registered, options: AppendOptions(expected: releasedAt.map { .at($0) } ?? .noEvents,
                                                                                 actor: "person:\(personId)"))
            _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        } catch let error as AppendError where error.code == .conflict {
            // Another registration of the same email won the race; this person never existed.
            try? await vault.forget(personId)
            throw AccountError(.emailTaken, "An account with this email already exists")
        }
        return (PeopleProjection.Account(personId: personId, orgId: org.orgId, role: role, sealed: sealed, sequence: 0), personal)
    }

    package func login(orgSlug: String, email rawEmail: String, password: String, address: String, policy: TokenPolicy,
                      device: SessionDevice = SessionDevice()) async throws -> SignedIn {
        let (account, personal) = try await checkPassword(orgSlug: orgSlug, email: rawEmail, password: password, address: address, policy: policy)
        return try await startSession(account, personal: personal, policy: policy, device: device)
    }

    /// The account whose email and password these are, before any session starts: what a sign-in
    /// with a second factor checks first. The limits, the decoy and the answers are the sign-in's.
    func checkPassword(orgSlug: String, email rawEmail: String, password: String, address: String,
                       policy: TokenPolicy) async throws -> (PeopleProjection.Account, PersonalData) {
        let email = AccountRules.normalisedEmail(rawEmail)
        guard let org = await runner.read({ state in state.orgBySlug[orgSlug].flatMap { state.orgs[$0] } }), org.app == policy.app else {
            // Another app's organisation is as unknown as none (organisations belong to one app).
            // Same cost as a wrong password, so timing tells no more than the answer.
            _ = try await hashing { try await passwords.verifyDecoy(password) }
            throw AccountError(.unknownOrganisation, "Unknown organization \(orgSlug.prefix(64))")
        }
        let accountKey = try await self.accountKey(orgId: org.orgId, email: email)
        if let wait = attempts.admit(account: accountKey, address: address) {
            throw AccountError(.tooManyAttempts(retryAfter: wait), "Too many sign-in attempts; try again in \(wait) seconds")
        }
        let account = await runner.read { $0.activeAccount(accountKey) }
        guard let account, let personal = try await vault.open(account.sealed, for: account.personId) else {
            _ = try await hashing { try await passwords.verifyDecoy(password) }
            attempts.failed(account: accountKey, address: address)
            throw AccountError(.wrongCredentials, "Invalid email or password")
        }
        guard try await hashing({ try await passwords.verify(password, against: personal.passwordHash) }) else {
            attempts.failed(account: accountKey, address: address)
            throw AccountError(.wrongCredentials, "Invalid email or password")
        }
        attempts.succeeded(account: accountKey)
        if policy.requiresVerifiedEmail, personal.emailVerified == false {
            throw AccountError(.unverifiedEmail, "Confirm your email first: enter the code we sent to it")
        }
        return (account, personal)
    }

    /// Spends a refresh token for a new pair. A token that was already spent means it leaked (or
    /// a client retried blindly): the whole session is revoked. A session bound to an installation
    /// refreshes only for that installation, proven by its secret (`installation`: the device the
    /// request proved, if any); a stolen token alone is refused and the session left as it was.
    package func refresh(_ token: String, policy: TokenPolicy, installation: String? = nil) async throws -> SignedIn {
        guard let sessionId = Self.refreshSessionID(token) else { throw AccountError(.invalidToken, "invalid refresh token") }
        let presented = Self.sha256(token)
        var session = await runner.read { $0.sessions[sessionId] }
        if session?.refreshHash != presented {
            // This process's fold may be behind a rotation another process made: catch up first.
            _ = try await runner.catchUpWithLog(timeout: Self.settle)
            session = await runner.read { $0.sessions[sessionId] }
        }
        // A refresh token is one app's, as its session is: another app's refresh route never
        // turns it into a token of its own (an OFFLEASH customer's into a field worker's).
        guard let session, session.revokedReason == nil, session.app == policy.app,
              let expires = Timestamp.millis(session.refreshExpiresAt), expires > Timestamp.millis(Date()) else {
            throw AccountError(.invalidToken, "invalid refresh token")
        }
        guard session.refreshHash == presented else {
            try await revoke(sessionId, reason: "refresh-reuse")
            throw AccountError(.invalidToken, "refresh token was already used; the session is ended")
        }
        if let bound = session.deviceId, bound != installation {
            throw AccountError(.invalidToken, "this session refreshes only on the device it is bound to (X-Device-Id and X-Device-Secret)")
        }
        guard let (account, personal) = try await opened(session.personId) else {
            throw AccountError(.invalidToken, "invalid refresh token")
        }
        let (refreshToken, refreshHash) = Self.newRefreshToken(sessionId)
        let refreshExpiresAt = Timestamp.string(millis: Timestamp.millis(Date()) + Int64(policy.refreshLifetime.components.seconds) * 1000)
        let result: AppendResult
        do {
            result = try await log.append(SessionRefreshed(sessionId: sessionId, refreshHash: refreshHash, refreshExpiresAt: refreshExpiresAt),
                                          options: AppendOptions(expected: .at(session.sequence), actor: "person:\(session.personId)"))
        } catch let error as AppendError where error.code == .conflict {
            // The same token was spent concurrently: one use wins, the other is reuse.
            try await revoke(sessionId, reason: "refresh-reuse")
            throw AccountError(.invalidToken, "refresh token was already used; the session is ended")
        }
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        return try await signedIn(account, personal: personal, sessionId: sessionId, sequence: result.sequence,
                                  refreshToken: refreshToken, policy: policy)
    }

    /// The claims of a valid access token: signature, expiry, and a live session, checked against
    /// memory only (the verified-token cache and this process's fold); no store is read.
    /// A token of another app is refused as invalid (401), whatever else it says: every token is
    /// bound to exactly one app.
    /// `app` nil: any app's token, for a service every app shares (device registration), where
    /// what the token touches is its own app's.
    package func validate(_ token: String, app: String?) async throws -> AccessClaims {
        try await validateAtCheckpoint(token, app: app).claims
    }

    /// `validate`, and the fold's checkpoint at which the session was found live: while the
    /// checkpoint has not moved the answer stands, so a caller may keep what it built from it.
    /// A token validated again at the same checkpoint costs two lock-free reads and a lookup.
    package func validateAtCheckpoint(_ token: String, app: String?) async throws -> (claims: AccessClaims, checkpoint: UInt64) {
        let claims: AccessClaims
        if let known = verified.withLock({ $0[token] }) {
            guard known.claims.expiresAt > Date() else { throw AccountError(.invalidToken, "token expired") }
            if let app, !known.claims.isFor(app: app) { throw Self.otherApp(app) }
            if known.liveAt != 0, known.liveAt == runner.currentCheckpoint { return (known.claims, known.liveAt) }
            claims = known.claims
        } else {
            guard token.utf8.count <= 4096 else { throw AccountError(.invalidToken, "invalid token") }
            do {
                claims = try await signing.verify(token)
            } catch let error as NATSError {
                throw error // the key ring could not be read: an outage, not a bad token
            } catch {
                throw AccountError(.invalidToken, "invalid or expired token")
            }
            if let app, !claims.isFor(app: app) { throw Self.otherApp(app) }
        }
        if runner.currentCheckpoint < claims.seq, await !runner.waitUntilApplied(claims.seq, timeout: .seconds(2)) {
            throw AccountError(.loading, "sessions are still loading; retry shortly")
        }
        let (checkpoint, state) = await runner.current()
        guard state.sessionIsLive(claims.sid) else {
            _ = verified.withLock { $0.removeValue(forKey: token) }
            throw AccountError(.invalidToken, "session has ended")
        }
        verified.withLock { cache in
            if cache.count >= Self.verifiedLimit { cache.removeAll(keepingCapacity: true) }
            cache[token] = Verified(claims: claims, liveAt: checkpoint)
        }
        return (claims, checkpoint)
    }

    static func otherApp(_ app: String) -> AccountError {
        AccountError(.invalidToken, "this token is not for \(app)")
    }

    /// Ends the session of `claims`: its access and refresh tokens stop working.
    package func logout(_ claims: AccessClaims) async throws {
        try await revoke(claims.sid, reason: "logout")
    }

    /// The person behind a validated token: from memory when this process has shown them before.
    package func rememberedAccount(_ claims: AccessClaims) async throws -> AccountView {
        if let known = opened.withLock({ $0[claims.personId] }) { return known }
        return try await account(claims)
    }

    /// Someone's name and phone as the people they share a thing with see them (a walk's customer
    /// and walker): from memory when this process has opened them before; nil once forgotten.
    package func card(_ personId: String) async throws -> AccountView? {
        if let known = opened.withLock({ $0[personId] }) { return known }
        guard let (account, personal) = try await opened(personId) else { return nil }
        return remember(Self.view(account, personal))
    }

    /// The person behind a validated token, opened from their sealed data.
    package func account(_ claims: AccessClaims) async throws -> AccountView {
        guard let (account, personal) = try await opened(claims.personId) else { throw AccountError(.invalidToken, "session has ended") }
        return remember(Self.view(account, personal))
    }

    /// A person who is not forgotten, with their account and their data opened with their key.
    package func opened(_ personId: String) async throws -> (PeopleProjection.Account, PersonalData)? {
        guard let account = await runner.read({ state in state.people[personId].flatMap { state.activeAccount($0.accountKey) } }),
              account.personId == personId,
              let personal = try await vault.open(account.sealed, for: personId) else { return nil }
        return (account, personal)
    }

    func remember(_ view: AccountView) -> AccountView {
        opened.withLock { cache in
            if cache.count >= Self.verifiedLimit { cache.removeAll(keepingCapacity: true) }
            cache[view.personId] = view
        }
        return view
    }

    /// Forgets the person of `claims` after checking their password again.
    package func forgetSelf(_ claims: AccessClaims, password: String) async throws {
        guard let (_, personal) = try await opened(claims.personId) else { throw AccountError(.invalidToken, "session has ended") }
        guard try await hashing({ try await passwords.verify(password, against: personal.passwordHash) }) else {
            throw AccountError(.wrongCredentials, "Password is incorrect")
        }
        try await forget(claims.personId, requestedBy: "self")
    }

    /// Crypto-shredding: deletes the person's key, then records it (forgotten, the sign-in
    /// identity released, every session revoked). The key goes first: once it is gone nothing
    /// sealed can be read, whatever happens to the appends after it.
    package func forget(_ personId: String, requestedBy: String) async throws {
        guard let person = await runner.read({ $0.people[personId] }) else {
            throw AccountError(.unknownPerson, "no person \(personId)")
        }
        try await vault.forget(personId)
        _ = opened.withLock { $0.removeValue(forKey: personId) }
        var last = try await log.append(PersonForgotten(personId: personId, requestedBy: requestedBy),
                                        options: AppendOptions(idempotencyKey: "forget-\(personId)", actor: requestedBy)).sequence
        if let account = await runner.read({ $0.accounts[person.accountKey] }), account.personId == personId {
            last = try await log.append(AccountReleased(accountKey: person.accountKey, personId: personId),
                                        options: AppendOptions(idempotencyKey: "release-\(personId)", actor: requestedBy)).sequence
        }
        let sessions = await runner.read { state in state.sessions.filter { $0.value.personId == personId && $0.value.revokedReason == nil }.keys }
        for sessionId in sessions {
            last = try await log.append(SessionRevoked(sessionId: sessionId, reason: "forgotten"),
                                        options: AppendOptions(idempotencyKey: "revoke-\(sessionId)-forgotten", actor: requestedBy)).sequence
        }
        _ = await runner.waitUntilApplied(last, timeout: Self.settle)
    }

    /// Moves the person's account to `newEmail`, which they proved: the account's new sign-in
    /// identity is appended expecting it free (`.emailTaken` when someone has it). Answers the old
    /// address and the person as they are now. One append can expect one aggregate only: a change
    /// of the same person's profile or password appended at the same moment under the old
    /// identity is lost to the move (the move reseals what it read), or, landing after it, refused
    /// by the fold. Both are the person's own requests at once; the next change succeeds.
    func moveAccount(personId: String, to newEmail: String) async throws -> (oldEmail: String, view: AccountView) {
        guard let person = await runner.read({ $0.people[personId] }), !person.forgotten, let (account, personal) = try await opened(personId) else {
            throw AccountError(.invalidToken, "session has ended")
        }
        let newKey = try await accountKey(orgId: account.orgId, email: newEmail)
        let (taken, releasedAt) = await runner.read { ($0.accounts[newKey] != nil, $0.released[newKey]) }
        guard !taken else { throw AccountError(.emailTaken, "An account with this email already exists") }
        var moved = personal
        moved.email = newEmail
        moved.emailVerified = true
        let sealed = try await vault.seal(moved, for: personId)
        do {
            let result = try await log.append(AccountMoved(accountKey: newKey, fromKey: person.accountKey, personId: personId, sealed: sealed),
                                              options: AppendOptions(expected: releasedAt.map { .at($0) } ?? .noEvents, actor: "person:\(personId)"))
            _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        } catch let error as AppendError where error.code == .conflict {
            throw AccountError(.emailTaken, "An account with this email already exists")
        }
        _ = opened.withLock { $0.removeValue(forKey: personId) }
        var now = account
        now.sealed = sealed
        return (personal.email, remember(Self.view(now, moved)))
    }

    // MARK: Plumbing

    func startSession(_ account: PeopleProjection.Account, personal: PersonalData, policy: TokenPolicy,
                      device: SessionDevice = SessionDevice()) async throws -> SignedIn {
        // Every way in (password, Apple, Google, a code, an invitation) comes through here.
        if await runner.read({ $0.people[account.personId]?.suspended }) != nil {
            throw AccountError(.wrongCredentials, "This account is suspended: ask whoever runs your organisation")
        }
        let sessionId = SecureRandom.uuidString()
        let (refreshToken, refreshHash) = Self.newRefreshToken(sessionId)
        let refreshExpiresAt = Timestamp.string(millis: Timestamp.millis(Date()) + Int64(policy.refreshLifetime.components.seconds) * 1000)
        let started = SessionStarted(sessionId: sessionId, personId: account.personId, orgId: account.orgId, app: policy.app,
                                     refreshHash: refreshHash, refreshExpiresAt: refreshExpiresAt,
                                     deviceId: device.deviceId, deviceName: device.name, platform: device.platform)
        let result = try await log.append(started, options: AppendOptions(expected: .noEvents, actor: "person:\(account.personId)"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        return try await signedIn(account, personal: personal, sessionId: sessionId, sequence: result.sequence,
                                  refreshToken: refreshToken, policy: policy)
    }

    private func signedIn(_ account: PeopleProjection.Account, personal: PersonalData, sessionId: String, sequence: UInt64,
                          refreshToken: String, policy: TokenPolicy) async throws -> SignedIn {
        // Whole seconds: the contract's dates carry no fractions, and `exp` is whole seconds too.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let expiresAt = now.addingTimeInterval(TimeInterval(policy.accessLifetime.components.seconds))
        let claims = AccessClaims(personId: account.personId, sessionId: sessionId, orgId: account.orgId, role: account.role,
                                  app: policy.app, sequence: sequence, issuedAt: now, expiresAt: expiresAt)
        let token = try await signing.sign(claims)
        return SignedIn(accessToken: token, expiresAt: expiresAt, refreshToken: refreshToken, account: remember(Self.view(account, personal)))
    }

    func revoke(_ sessionId: String, reason: String) async throws {
        let result = try await log.append(SessionRevoked(sessionId: sessionId, reason: reason),
                                          options: AppendOptions(idempotencyKey: "revoke-\(sessionId)-\(reason)"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
    }

    /// The organisation `slug` names, if it is `app`'s (any app's when nil); `.unknownOrganisation` (404) otherwise.
    package func organisation(_ slug: String, app: String?) async throws -> PeopleProjection.Org {
        guard let org = await runner.read({ state in state.orgBySlug[slug].flatMap { state.orgs[$0] } }), app.map({ org.app == $0 }) ?? true else {
            throw AccountError(.unknownOrganisation, "Unknown organization \(slug.prefix(64))")
        }
        return org
    }

    /// The sign-in identity: HMAC-SHA-256 of the organisation and the normalised email under the
    /// lookup secret, so the log never holds an email, not even hashed without a key.
    func accountKey(orgId: String, email: String) async throws -> String {
        try await keyedHash("\(orgId)\n\(AccountRules.normalisedEmail(email))")
    }

    /// HMAC-SHA-256 (lowercase hex) of `text` under the lookup secret: how personal values that
    /// must be compared (an email, a customer's address) appear in the log without being readable.
    package func keyedHash(_ text: String) async throws -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: try await lookupKey())
        return Hex.lowercase(mac)
    }

    private func lookupKey() async throws -> SymmetricKey {
        if let key = lookupSecret.withLock({ $0 }) { return key }
        let bucket = try await KeyValue.open(log.jetStream, bucket: "muster_auth", replicas: log.configuration.replicas)
        let key: SymmetricKey
        if let stored = try await bucket.get("lookup-secret"), stored.value.count == 32 {
            key = SymmetricKey(data: stored.value)
        } else {
            let fresh = SymmetricKey(size: .bits256)
            do {
                try await bucket.create("lookup-secret", fresh.withUnsafeBytes { Data($0) })
                key = fresh
            } catch let error as NATSError where error.code == .wrongLastSequence {
                guard let stored = try await bucket.get("lookup-secret"), stored.value.count == 32 else {
                    throw AuthSecretsError("the lookup secret in muster_auth is unreadable")
                }
                key = SymmetricKey(data: stored.value)
            }
        }
        lookupSecret.withLock { $0 = key }
        return key
    }

    func hashing<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch is PasswordHasher.Busy {
            throw AccountError(.busy, "Too many sign-ins at once; try again in a moment")
        }
    }

    static func view(_ account: PeopleProjection.Account, _ personal: PersonalData) -> AccountView {
        AccountView(personId: account.personId, email: personal.email, firstName: personal.firstName, lastName: personal.lastName,
                    phone: personal.phone, role: account.role, orgId: account.orgId)
    }

    static func newRefreshToken(_ sessionId: String) -> (token: String, hash: String) {
        let secret = Base64URL.encode(SecureRandom.bytes(32))
        let token = "\(sessionId).\(secret)"
        return (token, sha256(token))
    }

    /// The session a refresh token (`<session uuid>.<secret>`) belongs to, if it has that shape.
    package static func refreshSessionID(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, (try? Validate.uuid(String(parts[0]), field: "")) != nil else { return nil }
        return String(parts[0])
    }

    static func sha256(_ text: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(text.utf8)))
    }

    static func isPhone(_ phone: String) -> Bool {
        let digits = phone.filter(\.isASCII).filter(\.isNumber).count
        return (7...15).contains(digits) && phone.count <= 32 && phone.allSatisfy { $0.isASCII && ($0.isNumber || " +-().".contains($0)) }
    }
}
