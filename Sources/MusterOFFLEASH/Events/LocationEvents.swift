public import MusterEvents

/// `offleash.location.saved.v1`: a customer's location, added or changed. The address is personal
/// (a home): everything but the coordinates' absence is sealed with the customer's key, and
/// `addressKey` (a keyed hash of the normalised address) is what duplicate checks compare.
public struct LocationSaved: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "location", event: "saved", major: 1)

    public var locationId: String
    public var customerId: String
    public var addressKey: String
    /// Base64 AES-GCM box of the location's fields (`LocationDetails`).
    public var sealed: String
    public var isDefault: Bool

    public var aggregateID: String { locationId }

    public func validate() throws {
        try Validate.uuid(locationId, field: "/locationId")
        try Validate.uuid(customerId, field: "/customerId")
        try Validate.prefixed(addressKey, "", .lowerHex, count: 64, field: "/addressKey", "64 lowercase hex digits")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `offleash.location.removed.v1`.
public struct LocationRemoved: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "location", event: "removed", major: 1)

    public var locationId: String
    public var customerId: String

    public var aggregateID: String { locationId }

    public func validate() throws {
        try Validate.uuid(locationId, field: "/locationId")
        try Validate.uuid(customerId, field: "/customerId")
    }
}

/// `offleash.location.defaulted.v1`: the customer's default location is now this one.
public struct LocationDefaulted: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "location", event: "defaulted", major: 1)

    public var locationId: String
    public var customerId: String

    public var aggregateID: String { locationId }

    public func validate() throws {
        try Validate.uuid(locationId, field: "/locationId")
        try Validate.uuid(customerId, field: "/customerId")
    }
}
