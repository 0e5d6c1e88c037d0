package import MusterEvents
import MusterLog

/// The keys projection: every key ever issued, whether it is revoked, and a lookup by hash.
package enum KeysProjection: Projection {
    package struct Key: Codable, Sendable, Equatable {
        package var keyId: String
        package var app: String
        package var scopes: [String]
        package var keyHash: String
        package var keyPrefix: String
        package var label: String?
        package var issuedAt: String
        package var issuedBy: String?
        package var revokedAt: String?
        package var revokedReason: String?
        package var revokedBy: String?
        package var sequence: UInt64
    }

    package struct State: Codable, Sendable, Equatable {
        package var keys: [String: Key] = [:]
        /// keyHash → keyId
        package var byHash: [String: String] = [:]
    }

    package static let name = "keys"
    package static let version = 1
    package static let filterSubjects = ["events.platform.apikey.>"]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
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
