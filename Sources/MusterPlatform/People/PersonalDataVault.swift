import Crypto
import Foundation
package import MusterNATS

/// What Muster knows of a person that is personal: it is stored only sealed with the person's key.
package struct PersonalData: Codable, Sendable, Equatable {
    package var email: String
    package var firstName: String
    package var lastName: String
    package var phone: String?
    /// argon2id PHC string; sealed too, so nothing of a forgotten person's password remains usable.
    package var passwordHash: String
    /// False while a person who signed themselves up has not proved their email with the code
    /// mailed to it; nil for accounts made otherwise (an operator, an invitation, a provider).
    package var emailVerified: Bool?
    /// A time-based second factor (`SecondFactor`), where the app offers one and the person set it up.
    package var secondFactor: SecondFactorData?

    package init(email: String, firstName: String, lastName: String, phone: String?, passwordHash: String) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.passwordHash = passwordHash
    }
}

/// Crypto-shredding: one AES-256-GCM key per person in the `muster_person_keys` KV bucket, outside
/// the log. Events carry personal data only as boxes sealed with that key; erasing the key (its
/// stored bytes overwritten, then purged) makes every box of that person unreadable for good,
/// while the log stays append-only.
package actor PersonalDataVault {
    package static let bucketName = "muster_person_keys"
    let jetStream: JetStream
    let replicas: Int
    private var bucket: KeyValue?

    package init(jetStream: JetStream, replicas: Int = 1) {
        self.jetStream = jetStream
        self.replicas = replicas
    }

    private func keys() async throws -> KeyValue {
        if let bucket { return bucket }
        let opened = try await KeyValue.open(jetStream, bucket: Self.bucketName, replicas: replicas, erasable: true)
        bucket = opened
        return opened
    }

    /// Seals `data` (anything personal: a profile, a home address, free text) with the person's
    /// key, creating the key on first use.
    package func seal(_ data: some Encodable & Sendable, for personId: String) async throws -> String {
        let bucket = try await keys()
        let key: SymmetricKey
        if let stored = try await bucket.get(personId), stored.value.count == 32 {
            key = SymmetricKey(data: stored.value)
        } else {
            let fresh = SymmetricKey(size: .bits256)
            do {
                try await bucket.create(personId, fresh.withUnsafeBytes { Data($0) })
                key = fresh
            } catch let error as NATSError where error.code == .wrongLastSequence {
                // Another process made it first; or the person was forgotten, whose key never comes back.
                guard let stored = try await bucket.get(personId), stored.value.count == 32 else { throw VaultError.forgotten }
                key = SymmetricKey(data: stored.value)
            }
        }
        let box = try AES.GCM.seal(try JSONEncoder().encode(data), using: key)
        guard let combined = box.combined else { throw VaultError.forgotten }
        return combined.base64EncodedString()
    }

    /// The person's data, or nil when their key is gone (forgotten) or the box is not theirs.
    package func open(_ sealed: String, for personId: String) async throws -> PersonalData? {
        try await open(PersonalData.self, sealed, for: personId)
    }

    /// What was sealed for the person, or nil when their key is gone or the box is not theirs.
    package func open<T: Decodable & Sendable>(_ type: T.Type, _ sealed: String, for personId: String) async throws -> T? {
        guard let stored = try await keys().read(personId), stored.value.count == 32,
              let combined = Data(base64Encoded: sealed),
              let box = try? AES.GCM.SealedBox(combined: combined),
              let plain = try? AES.GCM.open(box, using: SymmetricKey(data: stored.value)) else { return nil }
        return try? JSONDecoder().decode(T.self, from: plain)
    }

    /// Deletes the person's key: its bytes are overwritten on the server's disk, then the key is
    /// purged from the bucket (a purge alone would leave the bytes in the stream's files).
    package func forget(_ personId: String) async throws {
        try await keys().erase(personId)
    }

    package enum VaultError: Error, Sendable { case forgotten }
}
