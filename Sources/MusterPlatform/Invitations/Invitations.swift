import Crypto
package import Foundation
import MusterEvents
import MusterLog
import MusterRuntime
import MusterJSON

/// Invitations to join an organisation: sent by email or text message, joined with the code the
/// message carries. Only the code's SHA-256 and a keyed hash of the contact are ever stored.
/// Invitations expire after 7 days; one person sends at most 20 an hour; a contact has at most one
/// pending invitation per organisation (the log's expected version decides between racing senders).
package struct Invitations: Sendable {
    package static let lifetime: Int64 = 7 * 86_400_000
    package static let perInviterPerHour = 20

    /// Where an invitation goes, as the sender typed it once checked.
    package enum Contact: Sendable, Equatable {
        case email(String)
        /// E.164.
        case phone(String)
    }

    /// What an invitation says, in the words of the app that sends it (the platform names no app).
    package struct Wording: Sendable {
        /// An email's subject, for the organisation's name.
        package var subject: @Sendable (_ org: String) -> String
        /// The message, for the organisation, the role offered, and how to join (the link or the code).
        package var text: @Sendable (_ org: String, _ role: String, _ join: String) -> String

        package init(subject: @escaping @Sendable (_ org: String) -> String,
                    text: @escaping @Sendable (_ org: String, _ role: String, _ join: String) -> String) {
            self.subject = subject
            self.text = text
        }
    }

    /// What joining made.
    package struct Joined: Sendable {
        package var orgName: String
        package var membership: People.Membership
    }

    let people: People
    let sms: SMSClient?
    let mail: MailClient?
    /// One invitation of a person at a time in this process, so that the hour's count each reads
    /// includes the one before (many at once would all read the same count).
    let inviters = OnePerKey()
    /// The invite link's start (the code is appended), when the app has one; else the message carries the code alone.
    let link: String?
    let wording: Wording

    package init(people: People, sms: SMSClient?, mail: MailClient?, link: String?, wording: Wording) {
        (self.people, self.sms, self.mail, self.link, self.wording) = (people, sms, mail, link, wording)
    }

    /// Exactly one of `email` and `phone`: an email by the app's rule, or a phone number of 10 to 15
    /// digits as typed (spaces, dashes, dots, brackets and a leading `+` allowed; ten digits are a
    /// North American number).
    package static func contact(email: String?, phone: String?) throws -> Contact {
        let email = email?.trimmingWhitespace, phone = phone?.trimmingWhitespace
        switch (email?.isEmpty == false ? email : nil, phone?.isEmpty == false ? phone : nil) {
        case (let email?, nil):
            guard let valid = AccountRules.email(email) else { throw InvitationError(.invalidField("email"), "That email address is not valid") }
            return .email(AccountRules.normalisedEmail(valid))
        case (nil, let phone?):
            guard phone.count <= 32, phone.allSatisfy({ $0.isASCII && ($0.isNumber || " -.()".contains($0)) || $0 == "+" }),
                  phone.dropFirst().allSatisfy({ $0 != "+" }) else {
                throw InvitationError(.invalidField("phone"), "A phone number has digits, and at most spaces, dashes and brackets besides")
            }
            let digits = phone.filter(\.isNumber)
            guard (10...15).contains(digits.count) else { throw InvitationError(.invalidField("phone"), "A phone number needs 10 to 15 digits") }
            return .phone(digits.count == 10 && phone.first != "+" ? "+1" + digits : "+" + digits)
        default:
            throw InvitationError(.invalidField("email"), "Give an email address or a phone number, not both")
        }
    }

    /// Invites `contact` to the caller's organisation as `role` and sends the code. The caller's
    /// right to invite for that role is the app's rule, checked before.
    package func invite(_ claims: AccessClaims, contact: Contact, role: String, now: Date = Date()) async throws {
        try await inviters.run(claims.personId) { try await send(claims, contact: contact, role: role, now: now) }
    }

    func send(_ claims: AccessClaims, contact: Contact, role: String, now: Date) async throws {
        let (address, channel): (String, String)
        switch contact {
        case .email(let email): (address, channel) = (email, "email")
        case .phone(let phone): (address, channel) = (phone, "sms")
        }
        if channel == "email" ? mail == nil : sms == nil {
            throw InvitationError(.notConfigured, "Invitations by \(channel == "email" ? "email" : "text message") are not configured here")
        }
        let contactKey = try await people.keyedHash("invitation\n\(claims.org)\n\(address)")
        let last = try await people.log.lastSequence(app: "platform", aggregate: "invitation", id: contactKey)
        if let last { _ = await people.runner.waitUntilApplied(last, timeout: People.settle) }
        let nowMillis = Timestamp.millis(now)
        let (org, pending, recent) = await people.runner.read { state in
            (state.orgs[claims.org], state.invitationByContact[contactKey].flatMap { state.invitations[$0] },
             (state.invitationsSent[claims.personId] ?? []).filter { nowMillis - $0 < 3_600_000 })
        }
        guard let org, org.app == claims.app else { throw InvitationError(.notFound, "No organisation of yours to invite to") }
        guard people.apps.roles(of: org.app).contains(role) else { throw InvitationError(.invalidField("role"), "\(role) is not a role of \(org.app)") }
        if let pending, pending.acceptedBy == nil, pending.expiresAt > nowMillis {
            throw InvitationError(.conflict, "An invitation to that \(channel == "email" ? "address" : "number") is pending already")
        }
        if recent.count >= Self.perInviterPerHour, let oldest = recent.min() {
            let wait = Int((oldest + 3_600_000 - nowMillis) / 1000) + 1
            throw InvitationError(.tooMany(retryAfter: wait), "You sent \(recent.count) invitations this hour; try again in \(wait / 60 + 1) minutes")
        }

        let code = Self.newCode()
        let sent = InvitationSent(contactKey: contactKey, invitationId: SecureRandom.uuidString(), codeHash: Self.hash(code), orgId: org.orgId,
                                  role: role, inviterId: claims.personId, channel: channel,
                                  expiresAt: Timestamp.string(millis: nowMillis + Self.lifetime, fraction: false))
        let sequence: UInt64
        do {
            sequence = try await people.log.append(sent, options: AppendOptions(expected: last.map { .at($0) } ?? .noEvents,
                                                                                actor: "person:\(claims.personId)")).sequence
        } catch let error as AppendError where error.code == .conflict {
            throw InvitationError(.conflict, "An invitation to that \(channel == "email" ? "address" : "number") is pending already")
        }
        do {
            try await deliver(code, to: contact, org: org.name, role: role)
        } catch {
            // Undelivered: give it up, so that trying again is not refused as pending.
            let withdrawn = InvitationWithdrawn(contactKey: contactKey, invitationId: sent.invitationId, reason: "undelivered")
            _ = try? await people.log.append(withdrawn, options: AppendOptions(expected: .at(sequence), actor: "person:\(claims.personId)"))
            throw error
        }
        _ = await people.runner.waitUntilApplied(sequence, timeout: People.settle)
    }

    /// Joins the organisation of the pending invitation `code` names, in its role.
    package func accept(_ claims: AccessClaims, code: String, now: Date = Date()) async throws -> Joined {
        let invalid = InvitationError(.notFound, "This invitation is invalid or has expired; ask for a new one")
        guard (8...128).contains(code.utf8.count) else { throw invalid }
        let codeHash = Self.hash(code)
        guard let (invitation, org) = await people.runner.read({ state in
            state.invitations[codeHash].flatMap { invitation in state.orgs[invitation.orgId].map { (invitation, $0) } }
        }), org.app == claims.app, invitation.expiresAt > Timestamp.millis(now),
            invitation.acceptedBy.map({ Self.acceptedBy(claims, $0) }) ?? true else { throw invalid }
        let held = await people.memberships(claims)
        if held.contains(where: { $0.orgId == org.orgId }) {
            throw InvitationError(.conflict, "You are a member of \(org.name) already")
        }
        if invitation.acceptedBy == nil {
            // The first to join with a code uses it up; the membership follows (a retry by the same
            // person after a failure in between finds it accepted by them and only grants).
            let accepted = InvitationAccepted(contactKey: invitation.contactKey, invitationId: invitation.invitationId, personId: claims.personId)
            do {
                let result = try await people.log.append(accepted, options: AppendOptions(expected: .at(invitation.sequence),
                                                                                           actor: "person:\(claims.personId)"))
                _ = await people.runner.waitUntilApplied(result.sequence, timeout: People.settle)
            } catch let error as AppendError where error.code == .conflict {
                // Used meanwhile: by this person's other tap (then the membership follows), or by someone else.
                let last = try await people.log.lastSequence(app: "platform", aggregate: "invitation", id: invitation.contactKey) ?? 0
                _ = await people.runner.waitUntilApplied(last, timeout: People.settle)
                guard let by = await people.runner.read({ $0.invitations[codeHash]?.acceptedBy }), Self.acceptedBy(claims, by) else { throw invalid }
            }
        }
        let membership = try await people.grantMembership(claims, orgId: org.orgId, role: invitation.role)
        return Joined(orgName: org.name, membership: membership)
    }

    /// Makes the account a pending invitation of `app` offers (its organisation, its role) for the
    /// invited person and signs them in: where people come only by invitation (a field crew). The
    /// first to join uses the code up; another's account made meanwhile is given up again.
    package static func join(_ people: People, code: String, email: String, firstName: String, lastName: String, password: String,
                             policy: People.TokenPolicy, device: SessionDevice = SessionDevice(), now: Date = Date()) async throws -> People.SignedIn {
        let invalid = InvitationError(.notFound, "This invitation is invalid or has expired; ask for a new one")
        guard (8...128).contains(code.utf8.count) else { throw invalid }
        guard let (invitation, org) = await people.runner.read({ state in
            state.invitations[hash(code)].flatMap { invitation in state.orgs[invitation.orgId].map { (invitation, $0) } }
        }), org.app == policy.app, invitation.expiresAt > Timestamp.millis(now), invitation.acceptedBy == nil else { throw invalid }
        let registration = People.Registration(orgSlug: org.slug, email: email, firstName: firstName, lastName: lastName, phone: nil,
                                               password: password, role: invitation.role)
        let (account, personal) = try await people.createAccount(registration, app: policy.app)
        let accepted = InvitationAccepted(contactKey: invitation.contactKey, invitationId: invitation.invitationId, personId: account.personId)
        do {
            let result = try await people.log.append(accepted, options: AppendOptions(expected: .at(invitation.sequence), actor: "person:\(account.personId)"))
            _ = await people.runner.waitUntilApplied(result.sequence, timeout: People.settle)
        } catch let error as AppendError where error.code == .conflict {
            try? await people.forget(account.personId, requestedBy: "invitation-used-meanwhile")
            throw invalid
        }
        return try await people.startSession(account, personal: personal, policy: policy, device: device)
    }

    func deliver(_ code: String, to contact: Contact, org: String, role: String) async throws {
        let join = link.map { "Open \($0)\(code) on your phone to join" } ?? "Your invite code: \(code)"
        let text = wording.text(org, role, join)
        switch contact {
        case .email(let email): try await mail?.send(to: email, subject: wording.subject(org), body: text)
        case .phone(let phone):
            do { try await sms?.send(to: phone, body: text) } catch { throw InvitationError(.providerUnavailable, "The text message could not be sent; try again") }
        }
    }

    /// 24 random bytes (`SecureRandom`), base64url: 32 characters.
    static func newCode() -> String {
        Base64URL.encode(SecureRandom.bytes(24))
    }

    static func hash(_ code: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(code.utf8)))
    }

    /// Whether a code accepted by `person` is the caller's own to use again (a retry of their join).
    static func acceptedBy(_ claims: AccessClaims, _ person: String) -> Bool {
        Access.permits(claims.principal, ResourceOwner(app: claims.app, personId: person))
    }
}
