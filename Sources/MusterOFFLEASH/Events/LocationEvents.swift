package import MusterEvents

/// `offleash.location.saved.v1`: a customer's location, added or changed. The address is personal
/// (a home): everything but the coordinates' absence is sealed with the customer's key, and
/// `addressKey` (a keyed hash of the normalised address) is what duplicate checks compare.
package struct LocationSaved: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "location", event: "saved", major: 1)

    package var locationId: String
    package var customerId: String
    package var addressKey: String
    /// Base64 AES-GCM box of the location's fields (`LocationDetails`).
    package var sealed: String
    package var isDefault: Bool

    package var aggregateID: String { locationId }

    package func validate() throws {
        try Validate.uuid(locationId, field: "/locationId")
        try Validate.uuid(customerId, field: "/customerId")
        try Validate.prefixed(addressKey, "", .lowerHex, count: 64, field: "/addressKey", "64 lowercase hex digits")
        try Validate.base64(sealed, 40...8192, field: "/sealed")
    }
}

/// `offleash.location.removed.v1`.
package struct LocationRemoved: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "location", event: "removed", major: 1)

    package var locationId: String
    package var customerId: String

    package var aggregateID: String { locationId }

    package func validate() throws {
        try Validate.uuid(locationId, field: "/locationId")
        try Validate.uuid(customerId, field: "/customerId")
    }
}

/// `offleash.location.defaulted.v1`: the customer's default location is now this one.
package struct LocationDefaulted: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "location", event: "defaulted", major: 1)

    package var locationId: String
    package var customerId: String

    package var aggregateID: String { locationId }

    package func validate() throws {
        try Validate.uuid(locationId, field: "/locationId")
        try Validate.uuid(customerId, field: "/customerId")
    }
}
