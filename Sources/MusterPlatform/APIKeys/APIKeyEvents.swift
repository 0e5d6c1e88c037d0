public import MusterEvents

/// The apps a key can be for, as they prefix their keys (apps whose module comes later included);
/// `platform` keys are for operators.
public enum KeyApps {
    public static let all: Set<String> = ["opl", "pop", "shieldai", "field", "offleash", "platform"]
}

/// `platform.apikey.issued.v1`: a key was issued. Only its SHA-256 is kept, never the key.
public struct APIKeyIssued: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "apikey", event: "issued", major: 1)

    public var keyId: String
    public var app: String
    public var scopes: [String]
    /// Lowercase hex SHA-256 of the whole key (`opl_…`).
    public var keyHash: String
    /// The key's first characters (`opl_1a2b`), so people can tell keys apart in listings.
    public var keyPrefix: String
    public var label: String?
    public var issuedBy: String?

    public init(keyId: String, app: String, scopes: [String], keyHash: String, keyPrefix: String,
                label: String? = nil, issuedBy: String? = nil) {
        self.keyId = keyId
        self.app = app
        self.scopes = scopes
        self.keyHash = keyHash
        self.keyPrefix = keyPrefix
        self.label = label
        self.issuedBy = issuedBy
    }

    public var aggregateID: String { keyId }

    public func validate() throws {
        try Validate.prefixed(keyId, "key_", .lowerHex, count: 16, field: "/keyId", "key_ followed by 16 lowercase hex digits")
        try Validate.oneOf(app, KeyApps.all, field: "/app")
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
public struct APIKeyRevokedV1: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "apikey", event: "revoked", major: 1)
    public var keyId: String
    public init(keyId: String) { self.keyId = keyId }
    public var aggregateID: String { keyId }

    public func validate() throws {
        try Validate.prefixed(keyId, "key_", .lowerHex, count: 16, field: "/keyId", "key_ followed by 16 lowercase hex digits")
    }
}

/// `platform.apikey.revoked.v2`: a key was revoked, by whom and why (required since v2,
/// hence a new major).
public struct APIKeyRevoked: EventPayload {
    public static let eventType = EventType(app: "platform", aggregate: "apikey", event: "revoked", major: 2)

    public var keyId: String
    public var reason: String
    public var revokedBy: String

    public init(keyId: String, reason: String, revokedBy: String) {
        self.keyId = keyId
        self.reason = reason
        self.revokedBy = revokedBy
    }

    /// v1 said nothing about why or who; the upcast says so explicitly.
    public init(upcasting old: APIKeyRevokedV1) {
        self.init(keyId: old.keyId, reason: "unspecified (revoked before reasons were recorded)", revokedBy: "unknown")
    }

    public var aggregateID: String { keyId }

    public func validate() throws {
        try Validate.prefixed(keyId, "key_", .lowerHex, count: 16, field: "/keyId", "key_ followed by 16 lowercase hex digits")
        try Validate.length(reason, 1...500, field: "/reason")
        try Validate.length(revokedBy, 1...100, field: "/revokedBy")
    }
}

extension EventCatalog {
    /// The platform's own events.
    public static var platform: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(APIKeyIssued.self)
        catalog.register(APIKeyRevokedV1.self, upcast: APIKeyRevoked.init(upcasting:))
        catalog.register(APIKeyRevoked.self)
        registerPeople(in: &catalog)
        registerDevices(in: &catalog)
        return catalog
    }
}
