import Crypto
package import Foundation
import MusterEvents
import MusterJSON
import MusterLog
import MusterNATS
import Metrics

/// One-time codes for phone sign-in: six digits, kept only as a keyed hash, valid ten minutes,
/// locked after five wrong tries, at most three sent to a number an hour. Kept in the
/// `muster_phone_codes` KV bucket (short-lived state, not the log: values expire after an hour),
/// each change a compare-and-set on the number's key, so two processes never both let a code
/// through, and never count a wrong try twice or not at all.
package actor PhoneCodes {
    struct Record: Codable, Equatable {
        /// HMAC of number and code; empty once used.
        var codeHash: String
        var expiresAt: Int64
        var attempts: Int
        /// When codes were sent, within the last hour.
        var sends: [Int64]
    }

    package static let validity: Int64 = 10 * 60_000
    package static let maxAttempts = 5
    package static let sendsPerHour = 3
    let people: People
    let sms: SMSClient?
    let replicas: Int
    private var bucket: KeyValue?

    package init(people: People, sms: SMSClient?, replicas: Int) {
        self.people = people
        self.sms = sms
        self.replicas = replicas
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
        let key = try await people.keyedHash("phone-code\n\(app)\n\(phone)")
        let nowMillis = Timestamp.millis(now)
        var code = ""
        for _ in 0..<3 {
            let stored = try await read(key)
            var record = stored?.record ?? Record(codeHash: "", expiresAt: 0, attempts: 0, sends: [])
            record.sends = record.sends.filter { nowMillis - $0 < 3_600_000 }
            if record.sends.count >= Self.sendsPerHour, let oldest = record.sends.min() {
                let wait = Int((oldest + 3_600_000 - nowMillis) / 1000) + 1
                throw IdentityError(.tooManyCodes(retryAfter: wait), "Too many codes for this number; try again in \(wait / 60 + 1) minutes")
            }
            code = String(format: "%06d", Int.random(in: 0...999_999)) // SystemRandomNumberGenerator: the kernel's CSPRNG
            record = Record(codeHash: try await hash(phone, code), expiresAt: nowMillis + Self.validity, attempts: 0, sends: record.sends + [nowMillis])
            if try await write(key, record, after: stored?.revision) { break }
            code = ""
        }
        guard !code.isEmpty else { throw IdentityError(.conflict, "Codes for this number changed meanwhile; try again") }
        try await sms.send(to: phone, body: text(code))
        return Date(timeIntervalSince1970: Double(nowMillis + Self.validity) / 1000)
    }

    /// Checks a code: wrong is `.wrongCode` (400); none waiting, expired, used or locked after
    /// five wrong tries is `.codeExpired` (410). A right code can be used once.
    package func verify(_ code: String, for phone: String, app: String, now: Date = Date()) async throws {
        guard Self.isE164(phone) else { throw IdentityError(.invalidField("phone"), "phone must be + and 10 to 15 digits, like +15555550123") }
        let key = try await people.keyedHash("phone-code\n\(app)\n\(phone)")
        let nowMillis = Timestamp.millis(now)
        for _ in 0..<5 {
            guard let stored = try await read(key), !stored.record.codeHash.isEmpty, stored.record.expiresAt > nowMillis,
                  stored.record.attempts < Self.maxAttempts else {
                throw IdentityError(.codeExpired, "That code has expired; ask for a new one")
            }
            var record = stored.record
            let wellFormed = code.count == 6 && code.allSatisfy({ $0.isASCII && $0.isNumber })
            let right = wellFormed ? Self.same(try await hash(phone, code), record.codeHash) : false
            if right { record.codeHash = "" } else { record.attempts += 1 }
            guard try await write(key, record, after: stored.revision) else { continue } // changed meanwhile: judge again
            if right { return }
            Counter(label: "muster_signin_failures_total", dimensions: [("method", "phone")]).increment()
            throw IdentityError(.wrongCode, "That code is not right; check it and try again")
        }
        throw IdentityError(.conflict, "The code changed meanwhile; try again")
    }

    // MARK: Plumbing

    private func openBucket() async throws -> KeyValue {
        if let bucket { return bucket }
        let opened = try await KeyValue.open(people.log.jetStream, bucket: "muster_phone_codes", replicas: replicas, maxAge: .seconds(3600))
        bucket = opened
        return opened
    }

    private func read(_ key: String) async throws -> (record: Record, revision: UInt64)? {
        guard let entry = try await openBucket().get(key) else { return nil }
        guard let record = try? JSONDecoder().decode(Record.self, from: entry.value) else { return nil }
        return (record, entry.revision)
    }

    /// Compare-and-set; false when another process changed the key first.
    private func write(_ key: String, _ record: Record, after revision: UInt64?) async throws -> Bool {
        do {
            try await openBucket().update(key, try JSONEncoder().encode(record), revision: revision ?? 0)
            return true
        } catch let error as NATSError where error.code == .wrongLastSequence {
            return false
        }
    }

    private func hash(_ phone: String, _ code: String) async throws -> String {
        try await people.keyedHash("phone-code-value\n\(phone)\n\(code)")
    }

    /// Compares two hex digests in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
