package import Foundation
import HummingbirdOTP
import MusterEvents
import MusterLog

/// A person's time-based one-time passwords (RFC 6238, what authenticator apps show), sealed with
/// their personal data: the secret never reaches the log in the clear.
package struct SecondFactorData: Codable, Sendable, Equatable {
    /// The shared secret (32 base-32 characters, 160 bits), as the authenticator app holds it.
    var secret: String
    /// False between enrollment and the first right code.
    var confirmed: Bool
    /// SHA-256 (hex) of each recovery code not yet used; the codes are shown once.
    var recoveryHashes: [String]
    /// The last time step a code was accepted for: a code works once, even within its window.
    var lastStep: Int64
}

/// Setting up, checking and removing a second factor, and the short-lived challenge that a
/// password sign-in answers when one is on. Wrong codes count as wrong passwords do (the same
/// limits per account and address).
package struct SecondFactor: Sendable {
    let people: People
    /// A code of the previous or next 30-second step is accepted too (clocks drift).
    static let skew: Int64 = 1
    static let challengeLifetime: Int64 = 300
    static let recoveryCount = 10

    package init(people: People) { self.people = people }

    package struct Enrollment: Sendable {
        /// The secret as an authenticator app takes it typed in (base 32 of the key), and the URI a QR code carries.
        package var secret: String
        package var uri: String
    }

    /// A new secret, waiting for its first code; one already confirmed is a conflict.
    package func begin(_ claims: AccessClaims, issuer: String) async throws -> Enrollment {
        let secret = Self.newSecret()
        var email = ""
        _ = try await people.changing(personId: claims.personId, "second-factor") { personal in
            guard personal.secondFactor?.confirmed != true else {
                throw AccountError(.secondFactorOn, "A second factor is on already; remove it first to set up another")
            }
            personal.secondFactor = SecondFactorData(secret: secret, confirmed: false, recoveryHashes: [], lastStep: 0)
            email = personal.email
        }
        let uri = TOTP(secret: secret).createAuthenticatorURL(label: email, issuer: issuer)
        let typed = URLComponents(string: uri)?.queryItems?.first { $0.name == "secret" }?.value ?? secret
        return Enrollment(secret: typed, uri: uri)
    }

    /// Turns the factor on with its first right code; answers the recovery codes, shown only now.
    package func confirm(_ claims: AccessClaims, code: String, address: String) async throws -> [String] {
        let recovery = (0..<Self.recoveryCount).map { _ in Self.recoveryCode() }
        try await spend(personId: claims.personId, code: code, address: address, allowRecovery: false) { factor in
            guard !factor.confirmed else { throw AccountError(.secondFactorOn, "The second factor is on already") }
            factor.confirmed = true
            factor.recoveryHashes = recovery.map(People.sha256)
        }
        return recovery
    }

    /// Turns the factor off with a code (or a recovery code).
    package func remove(_ claims: AccessClaims, code: String, address: String) async throws {
        try await spend(personId: claims.personId, code: code, address: address, allowRecovery: true, remove: true) { _ in }
    }

    // MARK: Signing in

    /// What a password sign-in answers when a factor is on: who, for which app, until when, signed.
    package func challenge(personId: String, app: String, now: Date = Date()) async throws -> (challenge: String, expiresAt: Date) {
        let expires = Int64(now.timeIntervalSince1970) + Self.challengeLifetime
        let body = "\(personId).\(app).\(expires)"
        return ("\(body).\(try await people.keyedHash("second-factor-challenge\n" + body))", Date(timeIntervalSince1970: Double(expires)))
    }

    /// The person a challenge names, if it is genuine, this app's, and not expired.
    package func person(in challenge: String, app: String, now: Date = Date()) async throws -> String {
        guard let parsed = Self.parse(challenge), parsed.app == app, parsed.expires > Int64(now.timeIntervalSince1970),
              APIKey.constantTimeEquals(try await people.keyedHash("second-factor-challenge\n" + parsed.signed), parsed.mac) else {
            throw AccountError(.invalidToken, "that sign-in has expired; enter your password again")
        }
        return parsed.personId
    }

    /// A challenge's parts, as sent (`person.app.expiry.mac`); nil for anything else.
    static func parse(_ challenge: String) -> (personId: String, app: String, expires: Int64, signed: String, mac: String)? {
        let parts = challenge.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard challenge.utf8.count <= 300, parts.count == 4, let expires = Int64(parts[2]) else { return nil }
        return (parts[0], parts[1], expires, parts[0...2].joined(separator: "."), parts[3])
    }

    /// Checks a sign-in's code (or a recovery code, which is then used up).
    package func check(personId: String, code: String, address: String) async throws {
        try await spend(personId: personId, code: code, address: address, allowRecovery: true) { factor in
            guard factor.confirmed else { throw AccountError(.wrongCode, "No second factor is set up") }
        }
    }

    // MARK: Plumbing

    /// Judges `code` against the person's factor and records what it spends (its time step, or the
    /// recovery code), with the account's last sequence expected: a code used twice at once wins once.
    private func spend(personId: String, code rawCode: String, address: String, allowRecovery: Bool, remove: Bool = false,
                       _ edit: @escaping @Sendable (inout SecondFactorData) throws -> Void) async throws {
        guard let person = await people.runner.read({ $0.people[personId] }) else { throw AccountError(.invalidToken, "session has ended") }
        let limited = person.accountKey
        if let wait = people.attempts.admit(account: limited, address: address) {
            throw AccountError(.tooManyAttempts(retryAfter: wait), "Too many attempts; try again in \(wait) seconds")
        }
        let code = rawCode.filter { !$0.isWhitespace && $0 != "-" }
        let now = Int64(Date().timeIntervalSince1970) / 30
        do {
            _ = try await people.changing(personId: personId, "second-factor") { personal in
                guard var factor = personal.secondFactor else { throw AccountError(.wrongCode, "No second factor is set up") }
                let totp = TOTP(secret: factor.secret)
                if code.count == 6, code.allSatisfy(\.isNumber),
                   let step = (now - Self.skew...now + Self.skew).first(where: { totp.compute(date: Date(timeIntervalSince1970: Double($0 * 30))) == Int(code) }) {
                    guard step > factor.lastStep else { throw AccountError(.wrongCode, "That code was used already; wait for the next one") }
                    factor.lastStep = step
                } else if allowRecovery, let index = factor.recoveryHashes.firstIndex(where: { APIKey.constantTimeEquals($0, People.sha256(code.lowercased())) }) {
                    factor.recoveryHashes.remove(at: index)
                } else {
                    throw AccountError(.wrongCode, "That code is not right")
                }
                try edit(&factor)
                personal.secondFactor = remove ? nil : factor
            }
        } catch let error as AccountError where error.code == .wrongCode {
            people.attempts.failed(account: limited, address: address)
            throw error
        }
        people.attempts.succeeded(account: limited)
    }

    static func newSecret() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        return String((0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }) // SystemRandomNumberGenerator
    }

    static func recoveryCode() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        return String((0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }

}
