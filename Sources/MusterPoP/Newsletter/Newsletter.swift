import Crypto
package import Foundation
import MusterEvents
package import MusterLog
package import MusterPlatform
import MusterRuntime

/// PoP's newsletter: signups from the app (idempotent on the app's id, one live subscription per
/// address and organisation), an unsubscribe link that needs no account and erases the name and
/// email, and the organisers' export. Names and emails are sealed under a key per subscriber in
/// the personal-data vault, so forgetting is erasing that key (as for people).
package struct Newsletter: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<NewsletterProjection>
    let people: People
    let config: PoPConfig
    /// Where the confirmation mail goes out (after the answer), and where its link points.
    let outbox: MailOutbox?
    let publicURL: String
    static let settle: Duration = .seconds(3)

    package init(log: EventLog, runner: ProjectionRunner<NewsletterProjection>, people: People, config: PoPConfig,
                 outbox: MailOutbox? = nil, publicURL: String = "http://127.0.0.1:8080") {
        self.log = log
        self.runner = runner
        self.people = people
        self.config = config
        self.outbox = outbox
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }

    /// What the vault seals for a subscriber.
    struct Contact: Codable, Sendable {
        var name: String
        var email: String
    }

    package struct Signup: Sendable {
        package var id: String
        package var name: String
        package var email: String
        package var signupDate: String
        package var org: String?

        package init(id: String, name: String, email: String, signupDate: String, org: String? = nil) {
            self.id = id
            self.name = name
            self.email = email
            self.signupDate = signupDate
            self.org = org
        }
    }

    package enum Outcome: Sendable, Equatable {
        /// Stored now; the link ends it.
        case subscribed(unsubscribeToken: String)
        /// The same signup id was stored before (a retry): `live` says whether it still is.
        case alreadyStored(unsubscribeToken: String, live: Bool)
        /// The address already has a live subscription in the organisation; nothing stored.
        case duplicate
    }

    /// Checks the signup as the app's form does, then stores it once.
    package func signUp(_ signup: Signup, received: Date) async throws -> Outcome {
        try Validate.uuid(signup.id.lowercased(), field: "id", as: PoPError.self)
        let signupId = signup.id.lowercased()
        guard let org = config.org(signup.org) else { throw PoPError(.invalidField("org"), "org names no organisation this server has") }
        guard let email = AccountRules.email(signup.email) else {
            throw PoPError(.invalidField("email"), "email must be an address like name@example.com")
        }
        let name = signup.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count) else { throw PoPError(.invalidField("name"), "name must be 1 to 200 characters") }
        guard let signed = Timestamp.millis(signup.signupDate) else {
            throw PoPError(.invalidField("signupDate"), "signupDate must be an RFC 3339 date-time, like 2026-11-21T14:00:05Z")
        }
        let now = Timestamp.millis(received)
        guard signed <= now + EventClock.tolerance else { throw PoPError(.invalidField("signupDate"), "signupDate is in the future") }

        if let stored = try await runner.tables("the newsletter", { try NewsletterTables.bySignup(signupId, in: $0) }) {
            return .alreadyStored(unsubscribeToken: try await token(stored.subscriberId), live: stored.isLive)
        }
        let emailKey = try await people.keyedHash("pop-newsletter\n\(org.slug)\n\(AccountRules.normalisedEmail(email))")
        let latest = try await runner.tables("the newsletter") { try NewsletterTables.latest(emailKey: emailKey, in: $0) }
        if latest?.isLive == true { return .duplicate }

        let subscriberId = SecureRandom.uuidString()
        let sealed = try await people.vault.seal(Contact(name: name, email: email), for: subscriberId)
        let event = NewsletterSubscribed(emailKey: emailKey, subscriberId: subscriberId, signupId: signupId, org: org.slug, sealed: sealed,
                                         signupDate: Timestamp.string(millis: signed), consentAt: Timestamp.string(millis: now))
        let result: AppendResult
        do {
            result = try await log.append(event, options: AppendOptions(idempotencyKey: "pop-signup:\(signupId)",
                                                                        expected: latest.map { .at($0.lastSequence) } ?? .noEvents,
                                                                        actor: "newsletter:\(org.slug)"))
        } catch let error as AppendError where error.code == .conflict {
            // Someone signed the same address up a moment ago: theirs stands.
            try? await people.vault.forget(subscriberId)
            return .duplicate
        }
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        if result.duplicate {
            // The same signup id raced itself: the first one's subscriber is the one.
            try? await people.vault.forget(subscriberId)
            guard let stored = try await runner.tables("the newsletter", { try NewsletterTables.bySignup(signupId, in: $0) }) else {
                throw PoPError(.notReady, "that signup is being stored; try again in a moment")
            }
            return .alreadyStored(unsubscribeToken: try await token(stored.subscriberId), live: stored.isLive)
        }
        // Double opt-in: the address proves it wants the newsletter with the link mailed to it.
        let confirm = "\(publicURL)/pop/newsletter/confirm?token=\(try await token(subscriberId, purpose: "pop-confirm"))"
        let unsubscribe = "\(publicURL)/pop/unsubscribe?token=\(try await token(subscriberId))"
        outbox?.post(MailOutbox.Letter(to: email, subject: "Confirm your \(org.name) newsletter signup",
                                       body: "Hi \(name),\n\nPlease confirm you want \(org.name)'s newsletter: \(confirm)\n\n"
                                           + "Not you? Ignore this mail, or remove the address at once: \(unsubscribe)\n",
                                       headers: ["List-Unsubscribe": "<\(unsubscribe)>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"]))
        return .subscribed(unsubscribeToken: try await token(subscriberId))
    }

    /// Confirms the subscription the token (from the confirmation mail) names; again is harmless.
    /// Returns the organisation's name for the page.
    package func confirm(token: String) async throws -> String {
        let subscriberId = try await subscriber(fromToken: token, purpose: "pop-confirm")
        guard let stored = try await runner.tables("the newsletter", { try NewsletterTables.bySubscriber(subscriberId, in: $0) }), stored.isLive else {
            throw PoPError(.notFound, "that confirmation link names no subscription (it may have been unsubscribed)")
        }
        if !stored.isConfirmed {
            do {
                let result = try await log.append(NewsletterConfirmed(emailKey: stored.emailKey, subscriberId: subscriberId, org: stored.org),
                                                  options: AppendOptions(expected: .at(stored.lastSequence), actor: "subscriber:\(subscriberId)"))
                _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
            } catch let error as AppendError where error.code == .conflict {
                // Confirmed (or ended) by a concurrent click: what it did stands.
            }
        }
        return config.org(stored.org)?.name ?? stored.org
    }

    /// Ends the subscription the token names and erases its name and email; calling it again is
    /// harmless. Returns the organisation's name for the confirmation page.
    package func unsubscribe(token: String) async throws -> String {
        let subscriberId = try await subscriber(fromToken: token)
        guard let stored = try await runner.tables("the newsletter", { try NewsletterTables.bySubscriber(subscriberId, in: $0) }) else {
            throw PoPError(.notFound, "that unsubscribe link names no subscription")
        }
        if stored.isLive {
            let ended = NewsletterUnsubscribed(emailKey: stored.emailKey, subscriberId: subscriberId, org: stored.org)
            do {
                let result = try await log.append(ended, options: AppendOptions(idempotencyKey: "pop-unsubscribe:\(subscriberId)",
                                                                                expected: .at(stored.lastSequence), actor: "subscriber:\(subscriberId)"))
                _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
            } catch let error as AppendError where error.code == .conflict {
                // Ended by a concurrent click; erasing again below is harmless.
            }
        }
        try await people.vault.forget(subscriberId)
        return config.org(stored.org)?.name ?? stored.org
    }

    /// The organisation's live subscribers as CSV lines, a page at a time (`write` gets each page's
    /// text): never the whole list in memory. A row whose key is gone (erased between the page's
    /// read and its opening) is left out. `unsubscribeBase` is the public URL the links start with.
    package func export(org: String, unsubscribeBase: String, pageSize: Int = 500, write: (String) async throws -> Void) async throws {
        guard config.org(org) != nil else { throw PoPError(.invalidField("org"), "org names no organisation this server has") }
        try await write(CSVRow.line(["name", "email", "signup_date", "consent_at", "signup_id", "unsubscribe_url", "confirmed"]))
        var cursor: UInt64 = 0
        while true {
            let after = cursor
            let page = try await runner.tables("the newsletter") { try NewsletterTables.livePage(org: org, after: after, limit: pageSize, in: $0) }
            guard let last = page.last else { return }
            var text = ""
            for row in page {
                guard let sealed = row.sealed, let contact = try await people.vault.open(Contact.self, sealed, for: row.subscriberId) else { continue }
                let link = "\(unsubscribeBase)/pop/unsubscribe?token=\(try await token(row.subscriberId))"
                text += CSVRow.line([contact.name, contact.email, row.signupDate, row.consentAt, row.signupId, link, row.isConfirmed ? "yes" : "no"])
            }
            try await write(text)
            cursor = last.sequence
        }
    }

    /// `<subscriberId>.<HMAC of it under the lookup secret>`: a link that needs no account and
    /// cannot be made for someone else's subscription.
    func token(_ subscriberId: String, purpose: String = "pop-unsubscribe") async throws -> String {
        "\(subscriberId).\(try await people.keyedHash("\(purpose)\n\(subscriberId)"))"
    }

    static let cutLink = "that unsubscribe link is not whole; copy all of it from the email"

    /// A subscriber id (UUID), a dot and 64 lowercase hex digits: what `token` makes.
    static func isTokenShaped(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && (try? Validate.uuid(String(parts[0]), field: "")) != nil
            && parts[1].utf8.count == 64 && parts[1].utf8.allSatisfy(Validate.CharacterClass.lowerHex.contains)
    }

    func subscriber(fromToken token: String, purpose: String = "pop-unsubscribe") async throws -> String {
        guard Self.isTokenShaped(token) else { throw PoPError(.invalidField("token"), Self.cutLink) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let subscriberId = String(parts[0])
        let expected = try await people.keyedHash("\(purpose)\n\(subscriberId)")
        // Compared in constant time: a mismatch says nothing about how much of the MAC was right.
        guard Array(expected.utf8).withUnsafeBytes({ a in Array(parts[1].utf8).withUnsafeBytes { b in safeCompare(a, b) } }) else {
            throw PoPError(.invalidField("token"), "that unsubscribe link is not one this server made")
        }
        return subscriberId
    }
}

/// Constant-time equality of two byte buffers of equal length (false for unequal lengths).
func safeCompare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in 0..<a.count { difference |= a[i] ^ b[i] }
    return difference == 0
}
