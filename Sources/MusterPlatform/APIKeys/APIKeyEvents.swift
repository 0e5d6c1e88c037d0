package import MusterEvents

/// `platform.apikey.issued.v1`: a key was issued. Only its SHA-256 is kept, never the key.
package struct APIKeyIssued: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "apikey", event: "issued", major: 1)

    package var keyId: String
    package var app: String
    package var scopes: [String]
    /// Lowercase hex SHA-256 of the whole key (`opl_…`).
    package var keyHash: String
    /// The key's first characters (`opl_1a2b`), so people can tell keys apart in listings.
    package var keyPrefix: String
    package var label: String?
    package var issuedBy: String?

    package init(keyId: String, app: String, scopes: [String], keyHash: String, keyPrefix: String,
                label: String? = nil, issuedBy: String? = nil) {
        self.keyId = keyId
        self.app = app
        self.scopes = scopes
        self.keyHash = keyHash
        self.keyPrefix = keyPrefix
        self.label = label
        self.issuedBy = issuedBy
    }

    package var aggregateID: String { keyId }

    package func validate() throws {
        try Validate.prefixed(keyId, "key_", .lowerHex, count: 16, field: "/keyId", "key_ followed by 16 lowercase hex digits")
        try Validate.name(app, field: "/app")
        try Validate.count(scopes, 1...32, field: "/scopes")
        try Validate.unique(scopes, field: "/scopes")
        for (index, scope) in scopes.enumerated() {
            try Validate.pair(scope, .lowerAlpha, UInt8(ascii: ":"), .lowerAlphanumericDash, field: "/scopes/\(index)", "a scope like read:mobile")
        }
        try Validate.prefixed(keyHash, "", .lowerHex, count: 64, field: "/keyHash", "64 lowercase hex digits")
        try Validate.pair(keyPrefix, .lowerAlpha, UInt8(ascii: "_"), .lowerHex, rightCount: 4, field: "/keyPrefix", "the app, _ and 4 hex digits")
        if let label { try Validate.length(label, 1...100, field: "/label") }
        if let issuedBy { try Validate.length(issuedBy, 1...100, field: "/issuedBy") }
    }
}

/// `platform.apikey.revoked.v1`, the first shape: no reason, no actor. Upcast to v2 on read.
package struct APIKeyRevokedV1: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "apikey", event: "revoked", major: 1)
    package var keyId: String
    package init(keyId: String) { self.keyId = keyId }
    package var aggregateID: String { keyId }

    package func validate() throws {
        try Validate.prefixed(keyId, "key_", .lowerHex, count: 16, field: "/keyId", "key_ followed by 16 lowercase hex digits")
    }
}

/// `platform.apikey.revoked.v2`: a key was revoked, by whom and why (required since v2,
/// hence a new major).
package struct APIKeyRevoked: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "apikey", event: "revoked", major: 2)

    package var keyId: String
    package var reason: String
    package var revokedBy: String

    package init(keyId: String, reason: String, revokedBy: String) {
        self.keyId = keyId
        self.reason = reason
        self.revokedBy = revokedBy
    }

    /// v1 said nothing about why or who; the upcast says so explicitly.
    package init(upcasting old: APIKeyRevokedV1) {
        self.init(keyId: old.keyId, reason: "unspecified (revoked before reasons were recorded)", revokedBy: "unknown")
    }

    package var aggregateID: String { keyId }

    package func validate() throws {
        try Validate.prefixed(keyId, "key_", .lowerHex, count: 16, field: "/keyId", "key_ followed by 16 lowercase hex digits")
        try Validate.length(reason, 1...500, field: "/reason")
        try Validate.length(revokedBy, 1...100, field: "/revokedBy")
    }
}

extension EventCatalog {
    /// The platform's own events.
    package static var platform: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(APIKeyIssued.self)
        catalog.register(APIKeyRevokedV1.self, upcast: APIKeyRevoked.init(upcasting:))
        catalog.register(APIKeyRevoked.self)
        registerPeople(in: &catalog)
        registerDevices(in: &catalog)
        return catalog
    }
}
