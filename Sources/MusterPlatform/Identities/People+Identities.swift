import Foundation
import MusterEvents
import MusterLog
import MusterRuntime

extension People {
    /// A sign-in method of a person, as the app lists them.
    package struct IdentityView: Sendable, Equatable {
        package var id: String
        package var personId: String
        /// `email`, `apple`, `google` or `phone`.
        package var provider: String
        package var subject: String
        package var email: String?
        package var phone: String?
        package var isPrimary: Bool
        package var createdAt: String
    }

    /// What an account made by a provider keeps where a password hash would be: no password
    /// signs in to it (it is not an argon2 string), and it names the identity it was made for.
    static func providerMarker(_ identityKey: String) -> String { "provider:\(identityKey)" }

    /// Whether the person can sign in with a password (an account made by Apple, Google or a
    /// phone number has none until they set one).
    package static func hasPassword(_ personal: PersonalData) -> Bool { !personal.passwordHash.hasPrefix("provider:") }

    /// The identity's key: per app, so an Apple account used for one app is not another's sign-in.
    func identityKey(app: String, _ provider: IdentityProvider, _ subject: String) async throws -> String {
        try await keyedHash("identity\n\(app)\n\(provider.rawValue)\n\(subject)")
    }

    /// Signs in with an Apple or Google account, or a phone number whose code was verified.
    ///
    /// A linked identity signs in to its person. Otherwise, where the app lets people sign
    /// themselves up, an account is made in `orgSlug` in the app's sign-up role (OFFLEASH: a
    /// customer; being a walker of a business takes that business) with the provider's email,
    /// Apple's private-relay stand-in, or a phone stand-in, and the identity linked to it. An
    /// email that already has an account there is refused with 409: the account's owner signs in
    /// with their password and links the provider from Connected Accounts (linking on email
    /// alone would hand an account to whoever registered that email first, unverified).
    package func signIn(with account: ProviderAccount, phone: String? = nil, firstName: String?, lastName: String?,
                       orgSlug: String, policy: TokenPolicy, device: SessionDevice = SessionDevice()) async throws -> SignedIn {
        let key = try await identityKey(app: policy.app, account.provider, account.subject)
        for _ in 0..<3 {
            if let linked = await linkedAccount(key) {
                let org = await runner.read { $0.orgs[linked.0.orgId] }
                guard org?.app == policy.app else { throw IdentityError(.conflict, "That account belongs to another app") }
                return try await startSession(linked.0, personal: linked.1, policy: policy, device: device)
            }
            if account.provider == .google, !account.emailVerified {
                throw IdentityError(.invalidToken, "Google has not verified this account's email")
            }
            let email = account.email ?? (account.provider == .phone
                ? AccountRules.phoneStandIn(account.subject, app: policy.app) : "\(account.subject)@privaterelay.appleid.com")
            let org = try await organisation(orgSlug, app: policy.app)
            let accountKey = try await self.accountKey(orgId: org.orgId, email: email)
            var made: (PeopleProjection.Account, PersonalData)
            if let existing = await runner.read({ $0.activeAccount(accountKey) }) {
                guard let personal = try await vault.open(existing.sealed, for: existing.personId), personal.passwordHash == Self.providerMarker(key) else {
                    throw IdentityError(.conflict, "An account with this email exists: sign in with your password, then link "
                                        + "\(account.provider.rawValue.capitalized) under Connected Accounts")
                }
                made = (existing, personal) // made for this identity by an earlier try that stopped before linking
            } else {
                let personal = PersonalData(email: email, firstName: Self.name(firstName), lastName: Self.name(lastName), phone: phone,
                                            passwordHash: Self.providerMarker(key))
                guard let role = policy.signUpRole else {
                    throw AccountError(.unknownPerson, "No \(policy.app) account is linked to this \(account.provider.rawValue.capitalized) account")
                }
                do {
                    made = try await registerAccount(personal, role: role, org: org)
                } catch let error as AccountError where error.code == .emailTaken {
                    continue // the same first sign-in, made twice at once: the other made the account
                }
            }
            let subject = LinkedIdentity(subject: account.subject, email: account.email, phone: phone)
            if try await link(key, provider: account.provider, subject, to: made.0.personId) == nil { continue }
            return try await startSession(made.0, personal: made.1, policy: policy, device: device)
        }
        throw IdentityError(.conflict, "Signing in changed meanwhile; try again")
    }

    /// The caller's sign-in methods: their email and password (when they have a password) and
    /// their linked identities, with exactly one primary (the one the account was made with).
    package func identities(_ claims: AccessClaims) async throws -> [IdentityView] {
        guard let (account, personal) = try await opened(claims.personId) else { throw AccountError(.invalidToken, "session has ended") }
        let person = await runner.read { $0.people[claims.personId] }
        var views: [IdentityView] = []
        if Self.hasPassword(personal) {
            views.append(IdentityView(id: Self.emailIdentityID(claims.personId), personId: claims.personId, provider: "email", subject: personal.email,
                                      email: personal.email, phone: nil, isPrimary: true, createdAt: person?.registeredAt ?? ""))
        }
        _ = account
        let linked = await runner.read { state in (state.identitiesByPerson[claims.personId] ?? []).compactMap { key in state.identities[key].map { (key, $0) } } }
        for (key, identity) in linked {
            guard let subject = try await vault.open(LinkedIdentity.self, identity.sealed, for: claims.personId) else { continue }
            views.append(IdentityView(id: identity.identityId, personId: claims.personId, provider: identity.provider, subject: subject.subject,
                                      email: subject.email, phone: subject.phone,
                                      isPrimary: !Self.hasPassword(personal) && personal.passwordHash == Self.providerMarker(key),
                                      createdAt: identity.linkedAt))
        }
        return views
    }

    /// Unlinks one of the caller's identities; never the primary one nor the last.
    package func unlinkIdentity(_ claims: AccessClaims, identityId: String) async throws {
        let all = try await identities(claims)
        guard let target = all.first(where: { $0.id == identityId }) else { throw IdentityError(.notFound, "No sign-in method \(identityId.prefix(64)) of yours") }
        guard !target.isPrimary else { throw IdentityError(.cannotUnlink, "The primary sign-in method cannot be unlinked") }
        guard all.count > 1 else { throw IdentityError(.cannotUnlink, "Your only sign-in method cannot be unlinked") }
        guard let (key, identity) = await runner.read({ state in
            (state.identitiesByPerson[claims.personId] ?? []).compactMap { key in state.identities[key].map { (key, $0) } }.first { $0.1.identityId == identityId }
        }) else { throw IdentityError(.notFound, "No sign-in method \(identityId.prefix(64)) of yours") }
        do {
            let result = try await log.append(IdentityUnlinked(identityKey: key, personId: claims.personId),
                                              options: AppendOptions(expected: .at(identity.sequence), actor: "person:\(claims.personId)"))
            _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        } catch let error as AppendError where error.code == .conflict {
            throw IdentityError(.conflict, "That sign-in method changed meanwhile; reload")
        }
    }

    /// Links a verified provider account to the caller: theirs already answers it again; someone
    /// else's, or a second account of the same provider, is 409.
    package func linkIdentity(_ claims: AccessClaims, _ account: ProviderAccount) async throws -> IdentityView {
        let key = try await identityKey(app: claims.app, account.provider, account.subject)
        if let holder = await linkedAccount(key) {
            guard holder.0.personId == claims.personId else { throw IdentityError(.conflict, "That \(account.provider.rawValue.capitalized) account belongs to someone else") }
        } else {
            let mine = try await identities(claims)
            guard !mine.contains(where: { $0.provider == account.provider.rawValue }) else {
                throw IdentityError(.conflict, "You have linked another \(account.provider.rawValue.capitalized) account already")
            }
            if account.provider == .google, !account.emailVerified { throw IdentityError(.invalidToken, "Google has not verified this account's email") }
            guard try await link(key, provider: account.provider, LinkedIdentity(subject: account.subject, email: account.email, phone: nil),
                                 to: claims.personId) != nil else {
                throw IdentityError(.conflict, "That \(account.provider.rawValue.capitalized) account was linked meanwhile")
            }
        }
        guard let view = try await identities(claims).first(where: { $0.provider == account.provider.rawValue && $0.subject == account.subject }) else {
            throw IdentityError(.conflict, "The link is still being recorded; try again")
        }
        return view
    }

    // MARK: Plumbing

    /// The live account an identity is linked to (not a forgotten person's).
    func linkedAccount(_ key: String) async -> (PeopleProjection.Account, PersonalData)? {
        guard let personId = await runner.read({ $0.identities[key]?.personId }) else { return nil }
        return try? await opened(personId)
    }

    /// Appends the link expecting the identity free (never linked, unlinked, or its person
    /// forgotten); nil when another link won the race.
    func link(_ key: String, provider: IdentityProvider, _ subject: LinkedIdentity, to personId: String) async throws -> UInt64? {
        let expected = await runner.read { state -> ExpectedVersion in
            if let identity = state.identities[key] { return .at(identity.sequence) }
            return state.unlinkedIdentities[key].map { .at($0) } ?? .noEvents
        }
        let sealed = try await vault.seal(subject, for: personId)
        let linked = IdentityLinked(identityKey: key, identityId: SecureRandom.uuidString(), personId: personId, provider: provider.rawValue, sealed: sealed)
        do {
            let result = try await log.append(linked, options: AppendOptions(expected: expected, actor: "person:\(personId)"))
            _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
            return result.sequence
        } catch let error as AppendError where error.code == .conflict {
            let last = try await log.lastSequence(app: "platform", aggregate: "identity", id: key) ?? 0
            _ = await runner.waitUntilApplied(last, timeout: Self.settle)
            return nil
        }
    }

    static func emailIdentityID(_ personId: String) -> String {
        // The email identity is the account itself: its id is the person's, marked as such.
        "email-" + personId
    }

    static func name(_ text: String?) -> String {
        String((text ?? "").trimmingWhitespace.prefix(100))
    }
}
