package import Foundation
import MusterEvents
import MusterLog
import MusterNATS

/// Six-digit one-time codes (phone sign-in, password reset, email verification), kept only as a
/// keyed hash in a KV bucket (short-lived state, not the log: values expire with the bucket's
/// age), each change a compare-and-set on the key, so two processes never both let a code
/// through, and never count a wrong try twice or not at all. What a code is for is in its key.
package actor OneTimeCodes {
    struct Record: Codable, Equatable {
        /// Keyed hash of key and code; empty once used.
        var codeHash: String
        var expiresAt: Int64
        var attempts: Int
        /// When codes were issued, within the last hour.
        var sends: [Int64]
    }

    /// How long a code lives, how many wrong tries lock it, how many may be issued an hour.
    package struct Rules: Sendable {
        package var validity: Duration
        package var maxAttempts = 5
        package var issuesPerHour = 3

        package init(validity: Duration, maxAttempts: Int = 5, issuesPerHour: Int = 3) {
            self.validity = validity
            self.maxAttempts = maxAttempts
            self.issuesPerHour = issuesPerHour
        }
    }

    package enum Issued: Sendable, Equatable {
        case code(String, expiresAt: Date)
        case tooMany(retryAfter: Int)
    }

    package enum Checked: Sendable, Equatable {
        /// Right, and now used.
        case right
        case wrong
        /// None waiting, expired, used, or locked after too many wrong tries.
        case expired
    }

    let people: People
    let bucketName: String
    let maxAge: Duration
    let replicas: Int
    private var bucket: KeyValue?

    package init(people: People, bucket: String, maxAge: Duration, replicas: Int) {
        self.people = people
        self.bucketName = bucket
        self.maxAge = maxAge
        self.replicas = replicas
    }

    /// A new code under `key` (which says what it is for), replacing any waiting one.
    package func issue(key: String, rules: Rules, now: Date = Date()) async throws -> Issued {
        let stored = try await storedKey(key)
        let nowMillis = Timestamp.millis(now)
        let validity = Int64(rules.validity.components.seconds) * 1000
        for _ in 0..<3 {
            let current = try await read(stored)
            var record = current?.record ?? Record(codeHash: "", expiresAt: 0, attempts: 0, sends: [])
            record.sends = record.sends.filter { nowMillis - $0 < 3_600_000 }
            if record.sends.count >= rules.issuesPerHour, let oldest = record.sends.min() {
                return .tooMany(retryAfter: Int((oldest + 3_600_000 - nowMillis) / 1000) + 1)
            }
            let code = String(format: "%06d", Int.random(in: 0...999_999)) // SystemRandomNumberGenerator: the kernel's CSPRNG
            record = Record(codeHash: try await hash(stored, code), expiresAt: nowMillis + validity, attempts: 0, sends: record.sends + [nowMillis])
            if try await write(stored, record, after: current?.revision) {
                return .code(code, expiresAt: Date(timeIntervalSince1970: Double(nowMillis + validity) / 1000))
            }
        }
        throw AccountError(.busy, "Codes for this address changed meanwhile; try again")
    }

    /// Checks `code` against the one waiting under `key`; a right code is used up.
    package func check(_ code: String, key: String, rules: Rules, now: Date = Date()) async throws -> Checked {
        let stored = try await storedKey(key)
        let nowMillis = Timestamp.millis(now)
        for _ in 0..<5 {
            guard let current = try await read(stored), !current.record.codeHash.isEmpty, current.record.expiresAt > nowMillis,
                  current.record.attempts < rules.maxAttempts else { return .expired }
            var record = current.record
            let wellFormed = code.utf8.count == 6 && code.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
            let right = wellFormed ? APIKey.constantTimeEquals(try await hash(stored, code), record.codeHash) : false
            if right { record.codeHash = "" } else { record.attempts += 1 }
            guard try await write(stored, record, after: current.revision) else { continue } // changed meanwhile: judge again
            return right ? .right : .wrong
        }
        throw AccountError(.busy, "The code changed meanwhile; try again")
    }

    // MARK: Plumbing

    /// The key as stored: a keyed hash, so the bucket holds no address or number.
    private func storedKey(_ key: String) async throws -> String {
        try await people.keyedHash("one-time-code\n\(bucketName)\n\(key)")
    }

    private func openBucket() async throws -> KeyValue {
        if let bucket { return bucket }
        let opened = try await KeyValue.open(people.log.jetStream, bucket: bucketName, replicas: replicas, maxAge: maxAge)
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

    private func hash(_ key: String, _ code: String) async throws -> String {
        try await people.keyedHash("one-time-code-value\n\(key)\n\(code)")
    }
}
