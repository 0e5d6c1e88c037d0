public import MusterEvents
public import MusterLog

/// The keys projection: every key ever issued, whether it is revoked, and a lookup by hash.
public enum KeysProjection: Projection {
    public struct Key: Codable, Sendable, Equatable {
        public var keyId: String
        public var app: String
        public var scopes: [String]
        public var keyHash: String
        public var keyPrefix: String
        public var label: String?
        public var issuedAt: String
        public var issuedBy: String?
        public var revokedAt: String?
        public var revokedReason: String?
        public var revokedBy: String?
        public var sequence: UInt64
    }

    public struct State: Codable, Sendable, Equatable {
        public var keys: [String: Key] = [:]
        /// keyHash → keyId
        public var byHash: [String: String] = [:]
    }

    public static let name = "keys"
    public static let version = 1
    public static let filterSubjects = ["events.platform.apikey.>"]
    public static let initialState = State()

    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let issued as APIKeyIssued:
            guard state.keys[issued.keyId] == nil else { throw ProjectionRejection("key \(issued.keyId) was already issued") }
            guard state.byHash[issued.keyHash] == nil else { throw ProjectionRejection("a key with this hash already exists") }
            state.keys[issued.keyId] = Key(keyId: issued.keyId, app: issued.app, scopes: issued.scopes, keyHash: issued.keyHash,
                                           keyPrefix: issued.keyPrefix, label: issued.label, issuedAt: event.time,
                                           issuedBy: issued.issuedBy ?? event.actor, sequence: event.sequence)
            state.byHash[issued.keyHash] = issued.keyId
        case let revoked as APIKeyRevoked:
            guard var key = state.keys[revoked.keyId] else { throw ProjectionRejection("revocation of unknown key \(revoked.keyId)") }
            guard key.revokedAt == nil else { return } // revoking twice changes nothing
            key.revokedAt = event.time
            key.revokedReason = revoked.reason
            key.revokedBy = revoked.revokedBy
            key.sequence = event.sequence
            state.keys[revoked.keyId] = key
        default:
            return // a newer event type this version does not know: nothing to fold
        }
    }
}
