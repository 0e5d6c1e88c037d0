import Foundation
import MusterEvents
import MusterLog

/// Signing up with a proven email, and resetting a forgotten password: the two things a
/// stranger may ask about any address. Neither answer says whether the address has an account,
/// in its words or its time: both paths hash a password or issue a code alike, and the mail
/// (sent only to a real account) leaves later, from the outbox. Codes: six digits, hashed at
/// rest (`OneTimeCodes`), five tries; a reset's lives 15 minutes, a verification's a day.
package struct AccountRecovery: Sendable {
    let people: People
    let codes: OneTimeCodes
    let outbox: MailOutbox
    static let resetRules = OneTimeCodes.Rules(validity: .seconds(15 * 60), maxAttempts: 5, issuesPerHour: 3)
    static let verifyRules = OneTimeCodes.Rules(validity: .seconds(24 * 3600), maxAttempts: 5, issuesPerHour: 5)

    package init(people: People, codes: OneTimeCodes, outbox: MailOutbox) {
        self.people = people
        self.codes = codes
        self.outbox = outbox
    }

    /// The process's one, over the shared people and outbox.
    package static func shared(people: People, outbox: MailOutbox, replicas: Int) -> AccountRecovery {
        AccountRecovery(people: people, codes: OneTimeCodes(people: people, bucket: "muster_account_codes", maxAge: .seconds(24 * 3600),
                                                            replicas: replicas),
                        outbox: outbox)
    }

    // MARK: Signing up

    /// Makes the account if the address is free, and mails a code to prove it; an address that
    /// has an unproven account gets a fresh code, one with a proven account a notice. The caller
    /// answers the same in every case.
    package func signUp(_ registration: People.Registration, accounts: AppAccounts) async throws {
        guard let role = accounts.policy.signUpRole else {
            throw AccountError(.unknownOrganisation, "\(accounts.app) accounts are made by invitation, not by signing up")
        }
        var registration = registration
        registration.role = role
        let org = try await people.organisation(registration.orgSlug, app: accounts.app)
        guard AccountRules.email(registration.email) != nil else { throw AccountError(.invalidField("email"), "Please enter a valid email address") }
        guard outbox.isConfigured else { throw AccountError(.notConfigured, "Signing up needs mail, which is not configured here") }
        do {
            let (_, personal) = try await people.createAccount(registration, app: accounts.app, verified: false)
            try await mailVerification(to: personal.email, org: org, accounts: accounts)
        } catch let error as AccountError where error.code == .emailTaken {
            // What the new account's path costs (its argon2id), so time tells nothing either.
            _ = try await people.hashing { try await people.passwords.hash(registration.password) }
            guard let email = AccountRules.email(registration.email), let (_, personal) = try await account(org: org, email: email) else { return }
            if personal.emailVerified == false {
                try await mailVerification(to: personal.email, org: org, accounts: accounts)
            } else {
                outbox.post(MailOutbox.Letter(to: personal.email, subject: "Someone tried to sign up to \(accounts.displayName) with your address",
                                              body: "Someone tried to make a \(accounts.displayName) account with this address, which has one already. "
                                                + "If it was you, sign in, or reset your password from the sign-in screen. If not, you need do nothing."))
            }
        }
    }

    /// Proves the address with the code mailed to it, and signs the person in.
    package func verify(orgSlug: String, email rawEmail: String, code: String, accounts: AppAccounts,
                        device: SessionDevice) async throws -> People.SignedIn {
        let org = try await people.organisation(orgSlug, app: accounts.app)
        let email = AccountRules.normalisedEmail(rawEmail)
        try await spend(code, key: "verify\n\(org.orgId)\n\(email)", rules: Self.verifyRules, what: "sign up again")
        guard let (account, _) = try await account(org: org, email: email) else {
            throw AccountError(.codeExpired, "That code has expired; sign up again for a new one")
        }
        _ = try await people.changing(personId: account.personId, "verified") { $0.emailVerified = true }
        guard let (fresh, personal) = try await people.opened(account.personId) else { throw AccountError(.invalidToken, "session has ended") }
        return try await people.startSession(fresh, personal: personal, policy: accounts.policy, device: device)
    }

    // MARK: Resetting a password

    /// Mails a reset code to the address if it has an account here. Answers nothing either way.
    package func requestReset(orgSlug: String, email rawEmail: String, accounts: AppAccounts) async throws {
        let org = try await people.organisation(orgSlug, app: accounts.app)
        guard let email = AccountRules.email(rawEmail) else { throw AccountError(.invalidField("email"), "Please enter a valid email address") }
        guard outbox.isConfigured else { throw AccountError(.notConfigured, "Password reset needs mail, which is not configured here") }
        // A code is issued (and rate-limited) whether or not the address has an account: the same
        // work, and the same limit, for both; only a real account's is ever mailed.
        let issued = try await codes.issue(key: "reset\n\(org.orgId)\n\(AccountRules.normalisedEmail(email))", rules: Self.resetRules)
        guard case .code(let code, _) = issued, let (_, personal) = try await account(org: org, email: email) else { return }
        outbox.post(MailOutbox.Letter(to: personal.email, subject: "Your \(accounts.displayName) password reset code",
                                      body: "Your code to choose a new \(accounts.displayName) password is \(code). It works once, for 15 minutes. "
                                        + "If you did not ask for it, you need do nothing: your password stays as it is."))
    }

    /// Sets a new password with a reset code; every session of the person ends.
    package func confirmReset(orgSlug: String, email rawEmail: String, code: String, newPassword: String, accounts: AppAccounts) async throws {
        if let problem = AccountRules.passwordProblem(newPassword) { throw AccountError(.invalidField("new_password"), problem) }
        let org = try await people.organisation(orgSlug, app: accounts.app)
        let email = AccountRules.normalisedEmail(rawEmail)
        try await spend(code, key: "reset\n\(org.orgId)\n\(email)", rules: Self.resetRules, what: "ask for a new one")
        guard let (account, _) = try await account(org: org, email: email) else {
            throw AccountError(.codeExpired, "That code has expired; ask for a new one")
        }
        let hash = try await people.hashing { try await people.passwords.hash(newPassword) }
        _ = try await people.changing(personId: account.personId, "password") { personal in
            personal.passwordHash = hash
            if personal.emailVerified == false { personal.emailVerified = true } // the code came to that mailbox
        }
        try await people.endEverySession(of: account.personId, reason: "password-reset")
    }

    // MARK: Changing one's email

    /// Mails a code to the new address (and a word to the old one), after the password; the move
    /// waits for the code. The answer is the same whether or not the new address is free.
    package func requestEmailChange(_ claims: AccessClaims, newEmail rawEmail: String, password: String, address: String,
                                    accounts: AppAccounts) async throws {
        guard let email = AccountRules.email(rawEmail), !AccountRules.isReserved(email) else {
            throw AccountError(.invalidField("new_email"), "Please enter a valid email address")
        }
        guard outbox.isConfigured else { throw AccountError(.notConfigured, "Changing an email needs mail, which is not configured here") }
        guard let person = await people.runner.read({ $0.people[claims.personId] }), let (account, personal) = try await people.opened(claims.personId) else {
            throw AccountError(.invalidToken, "session has ended")
        }
        if let wait = people.attempts.admit(account: person.accountKey, address: address) {
            throw AccountError(.tooManyAttempts(retryAfter: wait), "Too many attempts; try again in \(wait) seconds")
        }
        guard try await people.hashing({ try await people.passwords.verify(password, against: personal.passwordHash) }) else {
            people.attempts.failed(account: person.accountKey, address: address)
            throw AccountError(.wrongCredentials, "Password is incorrect")
        }
        people.attempts.succeeded(account: person.accountKey)
        let normalised = AccountRules.normalisedEmail(email)
        guard normalised != AccountRules.normalisedEmail(personal.email) else { throw AccountError(.invalidField("new_email"), "That is your email already") }
        let newKey = try await people.accountKey(orgId: account.orgId, email: normalised)
        let issued = try await codes.issue(key: "change-email\n\(claims.personId)\n\(normalised)", rules: Self.verifyRules)
        guard case .code(let code, _) = issued else { return }
        if await people.runner.read({ $0.accounts[newKey] == nil }) {
            outbox.post(MailOutbox.Letter(to: email, subject: "Confirm your new \(accounts.displayName) email",
                                          body: "Your code to make this your \(accounts.displayName) email is \(code); it works once, for a day."))
        }
        outbox.post(MailOutbox.Letter(to: personal.email, subject: "Your \(accounts.displayName) email is being changed",
                                      body: "Someone signed in to your \(accounts.displayName) account asked to change its email to \(email). "
                                        + "If it was not you, reset your password now; your email stays as it is until the new address is confirmed."))
    }

    /// Moves the account to the new address with the code mailed to it, and tells the old one.
    package func confirmEmailChange(_ claims: AccessClaims, newEmail rawEmail: String, code: String,
                                    accounts: AppAccounts) async throws -> People.AccountView {
        let normalised = AccountRules.normalisedEmail(rawEmail)
        try await spend(code, key: "change-email\n\(claims.personId)\n\(normalised)", rules: Self.verifyRules, what: "ask for a new one")
        let (old, view) = try await people.moveAccount(personId: claims.personId, to: normalised)
        outbox.post(MailOutbox.Letter(to: old, subject: "Your \(accounts.displayName) email was changed",
                                      body: "Your \(accounts.displayName) account's email is now \(normalised). If it was not you, contact support."))
        return view
    }

    // MARK: Plumbing

    private func mailVerification(to email: String, org: PeopleProjection.Org, accounts: AppAccounts) async throws {
        let key = "verify\n\(org.orgId)\n\(AccountRules.normalisedEmail(email))"
        let issued: OneTimeCodes.Issued
        do {
            issued = try await codes.issue(key: key, rules: Self.verifyRules)
        } catch let error as AccountError where error.code == .busy {
            return // sign-ups of this address at the same moment: another one's code is on its way
        }
        guard case .code(let code, _) = issued else { return }
        outbox.post(MailOutbox.Letter(to: email, subject: "Your \(accounts.displayName) code",
                                      body: "Welcome to \(accounts.displayName). Your code to confirm this address is \(code); it works once, for a day."))
    }

    private func spend(_ code: String, key: String, rules: OneTimeCodes.Rules, what: String) async throws {
        switch try await codes.check(code, key: key, rules: rules) {
        case .right: return
        case .wrong: throw AccountError(.wrongCode, "That code is not right; check it and try again")
        case .expired: throw AccountError(.codeExpired, "That code has expired or was used; \(what)")
        }
    }

    /// The live account of `email` in `org`, opened.
    private func account(org: PeopleProjection.Org, email: String) async throws -> (PeopleProjection.Account, PersonalData)? {
        let accountKey = try await people.accountKey(orgId: org.orgId, email: email)
        guard let account = await people.runner.read({ $0.activeAccount(accountKey) }) else { return nil }
        return try await people.opened(account.personId)
    }
}
