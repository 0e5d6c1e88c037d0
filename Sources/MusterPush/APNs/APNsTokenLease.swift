package import Foundation
import MusterJSON
package import MusterNATS

/// One provider token per team for every notifier process. Apple counts token renewals per team
/// and answers `429 TooManyProviderTokenUpdates` when processes each renew their own, so the
/// token lives in a KV bucket: a process uses the one there while it is younger than
/// `renewAfter`, and renews it by compare-and-set, so of two processes renewing at once one wins
/// and the other adopts the winner's token.
package actor APNsTokenLease {
    /// Apple: renew no more than once every 20 minutes, and a token older than 60 minutes is refused.
    package static let renewAfter: TimeInterval = 40 * 60
    package static let minimumAge: TimeInterval = 20 * 60

    struct Stored: Codable, Equatable {
        var token: String
        var issuedAt: Int64
    }

    let signer: APNsSigningKey
    let jetStream: JetStream
    let replicas: Int
    var opened: KeyValue?
    var current: (stored: Stored, revision: UInt64)?
    /// Tokens this process signed (and stored): what a test counts.
    package private(set) var signed = 0

    var key: String { "token.\(signer.teamID).\(signer.keyID)" }

    package init(signer: APNsSigningKey, jetStream: JetStream, replicas: Int) {
        self.signer = signer
        self.jetStream = jetStream
        self.replicas = replicas
    }

    /// The bucket `muster_apns`, opened (created) on first use.
    func bucket() async throws -> KeyValue {
        if let opened { return opened }
        let bucket = try await KeyValue.open(jetStream, bucket: "muster_apns", replicas: replicas)
        opened = bucket
        return bucket
    }

    /// The team's token, renewed when it is `renewAfter` old.
    package func token(now: Date = Date()) async throws -> String {
        if let current, age(current.stored, now) < Self.renewAfter { return current.stored.token }
        return try await refresh(now: now, unless: nil)
    }

    /// APNs refused `rejected` as expired: the token another process renewed meanwhile, or a new one.
    /// A token younger than `minimumAge` is not renewed again (Apple would refuse the renewal); it is
    /// returned as it is and the caller gives up on the copy.
    package func renew(rejected: String, now: Date = Date()) async throws -> String {
        try await refresh(now: now, unless: rejected)
    }

    func refresh(now: Date, unless rejected: String?) async throws -> String {
        let bucket = try await bucket()
        for _ in 0..<3 {
            let entry = try await bucket.get(key)
            let stored = entry.flatMap { try? JSONBytesDecoder().decode(Stored.self, from: Array($0.value)) }
            if let entry, let stored {
                let fresh = age(stored, now) < Self.renewAfter && stored.token != rejected
                if fresh || age(stored, now) < Self.minimumAge {
                    current = (stored, entry.revision)
                    return stored.token
                }
            }
            let new = Stored(token: try signer.token(issuedAt: now), issuedAt: Int64(now.timeIntervalSince1970))
            let value = Data(try JSONBytesEncoder().encode(new))
            do {
                let revision = try await bucket.update(key, value, revision: entry?.revision ?? 0)
                current = (new, revision)
                signed += 1
                return new.token
            } catch let error as NATSError where error.code == .wrongLastSequence {
                continue // another process renewed first: read theirs
            }
        }
        throw NATSError(.wrongLastSequence, "the APNs token kept changing under us")
    }

    func age(_ stored: Stored, _ now: Date) -> TimeInterval {
        now.timeIntervalSince1970 - TimeInterval(stored.issuedAt)
    }
}
