import Crypto
import Foundation
import JWTKit
import MusterJSON
package import MusterNATS

/// The ES256 keys that sign access tokens, shared by every process through the `muster_auth` KV
/// bucket (outside the log): the newest signs, every key young enough to have signed a live
/// token verifies. A key older than `rotateAfter` is replaced by the first process that needs to
/// sign; the bucket's compare-and-set makes one new key win when several processes try at once.
package actor SigningKeyRing {
    struct StoredKey: Codable, Sendable, Equatable {
        var kid: String
        /// P-256 private key, raw representation, base64.
        var privateKey: String
        /// Seconds since 1970.
        var createdAt: Int64
    }

    static let ringKey = "signing-keys"
    let jetStream: JetStream
    let replicas: Int
    package let rotateAfter: Duration
    /// How long a retired key still verifies: the longest access token's life.
    package let verifyFor: Duration
    private var bucket: KeyValue?
    private var ring: [StoredKey] = []
    private var revision: UInt64 = 0
    private var keys = JWTKeyCollection()
    private var lastLoad: ContinuousClock.Instant?

    package init(jetStream: JetStream, replicas: Int = 1, rotateAfter: Duration = .seconds(30 * 86_400),
                verifyFor: Duration = .seconds(86_400)) {
        self.jetStream = jetStream
        self.replicas = replicas
        self.rotateAfter = rotateAfter
        self.verifyFor = verifyFor
    }

    /// Signs with the newest key, making one first when there is none young enough.
    package func sign(_ claims: AccessClaims) async throws -> String {
        if lastLoad == nil { try await load() }
        let now = Int64(Date().timeIntervalSince1970)
        if ring.last.map({ now - $0.createdAt >= rotateAfter.components.seconds }) ?? true {
            try await rotate(now: now)
        }
        guard let newest = ring.last else { throw AuthSecretsError("no signing key") }
        return try await keys.sign(claims, kid: JWKIdentifier(string: newest.kid))
    }

    /// The verified claims of `token`. A `kid` this process has not seen yet (another process just
    /// rotated) reloads the ring, at most once every ten seconds.
    package func verify(_ token: String) async throws -> AccessClaims {
        if lastLoad == nil { try await load() }
        do {
            return try await keys.verify(token, as: AccessClaims.self)
        } catch let error as JWTError where error.errorType == .unknownKID {
            guard let lastLoad, ContinuousClock.now - lastLoad > .seconds(10) else { throw error }
            try await load()
            return try await keys.verify(token, as: AccessClaims.self)
        }
    }

    /// The public keys, as `/.well-known/jwks.json` serves them.
    package func publicKeys() async throws -> [JSONWebKey] {
        if lastLoad == nil { try await load() }
        return try ring.map { stored in
            let key = try P256.Signing.PrivateKey(rawRepresentation: Self.decode(stored.privateKey)).publicKey.rawRepresentation
            return JSONWebKey(kid: stored.kid, x: Base64URL.encode(key.prefix(32)), y: Base64URL.encode(key.suffix(32)))
        }
    }

    private func openBucket() async throws -> KeyValue {
        if let bucket { return bucket }
        let opened = try await KeyValue.open(jetStream, bucket: "muster_auth", replicas: replicas)
        bucket = opened
        return opened
    }

    private func load() async throws {
        let bucket = try await openBucket()
        if let entry = try await bucket.get(Self.ringKey) {
            ring = try JSONDecoder().decode([StoredKey].self, from: entry.value)
            revision = entry.revision
        } else {
            ring = []
            revision = 0
        }
        let fresh = JWTKeyCollection()
        for stored in ring {
            let key = try P256.Signing.PrivateKey(rawRepresentation: Self.decode(stored.privateKey))
            await fresh.add(ecdsa: try ES256PrivateKey(backing: key), kid: JWKIdentifier(string: stored.kid),
                            serializer: DefaultJWTSerializer(jsonEncoder: TokenJSONEncoder()))
        }
        keys = fresh
        lastLoad = .now
    }

    private func rotate(now: Int64) async throws {
        let bucket = try await openBucket()
        for _ in 0..<5 {
            let key = P256.Signing.PrivateKey()
            let kid = "es256-\(now)-\(UInt32.random(in: 0...UInt32.max))"
            let keep = ring.filter { now - $0.createdAt < rotateAfter.components.seconds + verifyFor.components.seconds }
            let next = keep + [StoredKey(kid: kid, privateKey: key.rawRepresentation.base64EncodedString(), createdAt: now)]
            do {
                try await bucket.update(Self.ringKey, try JSONEncoder().encode(next), revision: revision)
                try await load()
                return
            } catch let error as NATSError where error.code == .wrongLastSequence {
                try await load() // another process rotated first: use theirs if it is young enough
                if let newest = ring.last, now - newest.createdAt < rotateAfter.components.seconds { return }
            }
        }
        throw AuthSecretsError("could not store a new signing key")
    }

    static func decode(_ base64: String) throws -> Data {
        guard let data = Data(base64Encoded: base64) else { throw AuthSecretsError("a stored signing key is not base64") }
        return data
    }
}

/// One public key of `/.well-known/jwks.json` (RFC 7517).
package struct JSONWebKey: Codable, Sendable, Equatable {
    package var kty = "EC"
    package var crv = "P-256"
    package var alg = "ES256"
    package var use = "sig"
    package var kid: String
    package var x: String
    package var y: String
}

/// A secret in `muster_auth` could not be read or stored.
package struct AuthSecretsError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
