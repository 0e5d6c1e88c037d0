import MusterEvents
import MusterLog

extension People {
    /// What a person may change of their own profile; nil (or an empty name) keeps the value.
    package struct ProfileChange: Sendable, Equatable {
        package var firstName: String?
        package var lastName: String?
        package var phone: String?

        package init(firstName: String? = nil, lastName: String? = nil, phone: String? = nil) {
            self.firstName = firstName
            self.lastName = lastName
            self.phone = phone
        }
    }

    /// Changes the signed-in person's names or phone. Email is not editable (it is the sign-in
    /// identity); an omitted or empty value keeps what is there, as the app cannot clear a field.
    package func updateProfile(_ claims: AccessClaims, _ change: ProfileChange) async throws -> AccountView {
        try await changing(claims, "profile") { personal in
            if let first = change.firstName?.trimmingWhitespace, !first.isEmpty {
                guard first.count <= 100 else { throw AccountError(.invalidField("first_name"), "First name must be at most 100 characters") }
                personal.firstName = first
            }
            if let last = change.lastName?.trimmingWhitespace, !last.isEmpty {
                guard last.count <= 100 else { throw AccountError(.invalidField("last_name"), "Last name must be at most 100 characters") }
                personal.lastName = last
            }
            if let phone = change.phone?.trimmingWhitespace, !phone.isEmpty {
                guard Self.isPhone(phone) else { throw AccountError(.invalidField("phone"), "Please enter a valid phone number") }
                personal.phone = phone
            }
        }
    }

    /// Changes the signed-in person's password after checking the current one. A wrong current
    /// password is a 400, never a 401 (the app would sign the person out); guesses count against
    /// the account as sign-in attempts do.
    package func changePassword(_ claims: AccessClaims, current: String, new: String, address: String) async throws {
        guard let problem = AccountRules.passwordProblem(new) else {
            _ = try await changing(claims, "password") { personal in
                try await checkCurrent(current, personal, accountKey: try await self.accountKey(orgId: claims.org, email: personal.email), address: address)
                personal.passwordHash = try await hashing { try await passwords.hash(new) }
            }
            return
        }
        throw AccountError(.invalidField("new_password"), problem)
    }

    /// The current password's check, or none for an account made by Apple, Google or a phone
    /// number that has no password yet (it sets its first one).
    private func checkCurrent(_ current: String, _ personal: PersonalData, accountKey: String, address: String) async throws {
        guard Self.hasPassword(personal) else { return }
        if let wait = attempts.admit(account: accountKey, address: address) {
            throw AccountError(.tooManyAttempts(retryAfter: wait), "Too many attempts; try again in \(wait) seconds")
        }
        guard try await hashing({ try await passwords.verify(current, against: personal.passwordHash) }) else {
            attempts.failed(account: accountKey, address: address)
            throw AccountError(.wrongCredentials, "Current password is incorrect")
        }
        attempts.succeeded(account: accountKey)
    }

    /// Opens the person's data, lets `edit` change it, seals it again and appends it with the
    /// identity's last sequence expected; a change that lost a race is made once more on the
    /// fresh data.
    private func changing(_ claims: AccessClaims, _ change: String,
                          _ edit: (inout PersonalData) async throws -> Void) async throws -> AccountView {
        try await changing(personId: claims.personId, change, edit)
    }

    /// `changing` for a person named by id (a password reset, a verified email: no token yet).
    func changing(personId: String, _ change: String, _ edit: (inout PersonalData) async throws -> Void) async throws -> AccountView {
        for _ in 0..<3 {
            guard let person = await runner.read({ $0.people[personId] }), !person.forgotten,
                  let (account, before) = try await opened(personId) else {
                throw AccountError(.invalidToken, "session has ended")
            }
            var personal = before
            try await edit(&personal)
            if personal == before { return remember(Self.view(account, personal)) }
            let sealed = try await vault.seal(personal, for: personId)
            let event = AccountChanged(accountKey: person.accountKey, personId: personId, change: change, sealed: sealed)
            do {
                let result = try await log.append(event, options: AppendOptions(expected: .at(account.sequence), actor: "person:\(personId)"))
                _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
                var changed = account
                changed.sealed = sealed
                return remember(Self.view(changed, personal))
            } catch let error as AppendError where error.code == .conflict {
                _ = await runner.waitUntilApplied(try await log.lastSequence(app: "platform", aggregate: "account", id: person.accountKey) ?? 0,
                                                  timeout: Self.settle)
            }
        }
        throw AccountError(.busy, "Your account changed meanwhile; try again")
    }
}

