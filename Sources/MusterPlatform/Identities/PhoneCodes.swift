package import Foundation
import MusterEvents
import Metrics

/// One-time codes for phone sign-in: six digits, kept only as a keyed hash, valid ten minutes,
/// locked after five wrong tries, at most three sent to a number an hour (`OneTimeCodes`, in the
/// `muster_phone_codes` KV bucket, whose values expire after an hour).
package struct PhoneCodes: Sendable {
    package static let rules = OneTimeCodes.Rules(validity: .seconds(600), maxAttempts: 5, issuesPerHour: 3)
    let codes: OneTimeCodes
    let sms: SMSClient?

    package init(people: People, sms: SMSClient?, replicas: Int) {
        self.codes = OneTimeCodes(people: people, bucket: "muster_phone_codes", maxAge: .seconds(3600), replicas: replicas)
        self.sms = sms
    }

    /// An E.164 number: `+` and 10 to 15 digits.
    package static func isE164(_ phone: String) -> Bool {
        phone.first == "+" && (10...15).contains(phone.count - 1) && phone.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Sends a new code to `phone` and answers when it expires. `text` words the message around
    /// the code (the app's: the platform names no app). The caller has checked that the
    /// organisation signed in to is one whose app signs people in by phone: a text costs money.
    package func send(to phone: String, app: String, text: @Sendable (_ code: String) -> String, now: Date = Date()) async throws -> Date {
        guard Self.isE164(phone) else { throw IdentityError(.invalidField("phone"), "phone must be + and 10 to 15 digits, like +15555550123") }
        guard let sms else { throw IdentityError(.notConfigured, "Sign-in by phone is not configured here") }
        switch try await codes.issue(key: "phone\n\(app)\n\(phone)", rules: Self.rules, now: now) {
        case .tooMany(let wait):
            throw IdentityError(.tooManyCodes(retryAfter: wait), "Too many codes for this number; try again in \(wait / 60 + 1) minutes")
        case .code(let code, let expiresAt):
            try await sms.send(to: phone, body: text(code))
            return expiresAt
        }
    }

    /// Checks a code: wrong is `.wrongCode` (400); none waiting, expired, used or locked after
    /// five wrong tries is `.codeExpired` (410). A right code can be used once.
    package func verify(_ code: String, for phone: String, app: String, now: Date = Date()) async throws {
        guard Self.isE164(phone) else { throw IdentityError(.invalidField("phone"), "phone must be + and 10 to 15 digits, like +15555550123") }
        switch try await codes.check(code, key: "phone\n\(app)\n\(phone)", rules: Self.rules, now: now) {
        case .right: return
        case .expired: throw IdentityError(.codeExpired, "That code has expired; ask for a new one")
        case .wrong:
            Counter(label: "muster_signin_failures_total", dimensions: [("method", "phone")]).increment()
            throw IdentityError(.wrongCode, "That code is not right; check it and try again")
        }
    }
}
