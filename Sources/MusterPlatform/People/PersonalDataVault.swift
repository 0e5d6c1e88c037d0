import Crypto
import Foundation
import MusterJSON
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
///
/// With a `KeyValueMirror` of the bucket (a serving process has one), keys are read from the
/// process's copy, not asked of the server each time: a key forgotten by this process is gone from
/// its copy before the server is asked to erase it; one forgotten by another process is gone from
/// this copy when the purge is delivered, milliseconds later.
package actor PersonalDataVault {
    package static let bucketName = "muster_person_keys"
    let jetStream: JetStream
    let replicas: Int
    let mirror: KeyValueMirror?
    private var bucket: KeyValue?

    package init(jetStream: JetStream, replicas: Int = 1, mirror: KeyValueMirror? = nil) {
        self.jetStream = jetStream
        self.replicas = replicas
        self.mirror = mirror
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
        if let known = mirror?.value(personId), known.count == 32 {
            key = SymmetricKey(data: known)
        } else if let stored = try await bucket.get(personId), stored.value.count == 32 {
            mirror?.stored(personId, stored.value, revision: stored.revision)
            key = SymmetricKey(data: stored.value)
        } else {
            let fresh = SymmetricKey(size: .bits256)
            let bytes = fresh.withUnsafeBytes { Data($0) }
            do {
                let revision = try await bucket.create(personId, bytes)
                mirror?.stored(personId, bytes, revision: revision)
                key = fresh
            } catch let error as NATSError where error.code == .wrongLastSequence {
                // Another process made it first; or the person was forgotten, whose key never comes back.
                guard let stored = try await bucket.get(personId), stored.value.count == 32 else { throw VaultError.forgotten }
                mirror?.stored(personId, stored.value, revision: stored.revision)
                key = SymmetricKey(data: stored.value)
            }
        }
        let box = try AES.GCM.seal(try JSONEncoder().encode(data), using: key)
        guard let combined = box.combined else { throw VaultError.forgotten }
        return combined.base64EncodedString()
    }

    /// The person's data, or nil when their key is gone (forgotten) or the box is not theirs.
    package nonisolated func open(_ sealed: String, for personId: String) async throws -> PersonalData? {
        try await open(PersonalData.self, sealed, for: personId)
    }

    /// What was sealed for the person, or nil when their key is gone or the box is not theirs.
    /// Not isolated: a key the process's copy holds is used on the caller's executor, no hop.
    package nonisolated func open<T: Decodable & Sendable>(_ type: T.Type, _ sealed: String, for personId: String) async throws -> T? {
        let stored: Data
        if let known = mirror?.value(personId) {
            stored = known
        } else {
            guard let read = try await read(personId) else { return nil }
            stored = read
        }
        guard stored.count == 32,
              let combined = Data(base64Encoded: sealed),
              let box = try? AES.GCM.SealedBox(combined: combined),
              let plain = try? AES.GCM.open(box, using: SymmetricKey(data: stored)) else { return nil }
        // MusterJSON's decoder (agreeing with Foundation's): a console page opens several boxes
        // for each walk it lists, and Foundation's decoder was a sixth of a busy week page.
        return try? JSONBytesDecoder().decode(T.self, from: plain)
    }

    private func read(_ personId: String) async throws -> Data? {
        try await keys().read(personId)?.value
    }

    /// Deletes the person's key: its bytes are overwritten on the server's disk, then the key is
    /// purged from the bucket (a purge alone would leave the bytes in the stream's files).
    package func forget(_ personId: String) async throws {
        // Out of this process's copy first, for good (a key never comes back): from here on every
        // read asks the server, which then no longer has it.
        mirror?.removed(personId, revision: .max)
        try await keys().erase(personId)
    }

    package enum VaultError: Error, Sendable { case forgotten }
}
