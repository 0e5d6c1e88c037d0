package import MusterEvents

/// `offleash.walker.profiled.v1`: a walker's profile as it now is (bio, experience,
/// specializations, emergency contact), sealed with the walker's own key: the emergency contact
/// is someone else's name and phone.
package struct WalkerProfiled: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "walker", event: "profiled", major: 1)

    package var walkerId: String
    package var orgId: String
    /// Base64 AES-GCM box of `WalkerProfileDetails`.
    package var sealed: String

    package var aggregateID: String { walkerId }

    package func validate() throws {
        try Validate.uuid(walkerId, field: "/walkerId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.base64(sealed, 40...16384, field: "/sealed")
    }
}

/// `offleash.area.saved.v1`: a walker's service area, a polygon they drew on the map.
package struct ServiceAreaSaved: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "area", event: "saved", major: 1)

    package struct Point: Codable, Sendable, Equatable {
        package var lat: Double
        package var lng: Double
    }

    package var areaId: String
    package var walkerId: String
    package var orgId: String
    package var name: String
    /// `#RRGGBB`.
    package var color: String
    package var polygon: [Point]
    package var isActive: Bool
    package var priority: Int
    package var priceAdjustmentPercent: Int
    package var notes: String?

    package var aggregateID: String { areaId }

    package func validate() throws {
        try Validate.uuid(areaId, field: "/areaId")
        try Validate.uuid(walkerId, field: "/walkerId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.length(name, 1...100, field: "/name")
        let hex = color.dropFirst()
        guard color.first == "#", hex.count == 6, hex.allSatisfy(\.isHexDigit) else { throw EventValidationError(field: "/color", "must be #RRGGBB") }
        guard (3...500).contains(polygon.count) else { throw EventValidationError(field: "/polygon", "must have 3 to 500 points") }
        for (index, point) in polygon.enumerated() {
            guard point.lat.isFinite, point.lng.isFinite, (-90...90).contains(point.lat), (-180...180).contains(point.lng) else {
                throw EventValidationError(field: "/polygon/\(index)", "must be a latitude and longitude")
            }
        }
        guard (0...1000).contains(priority) else { throw EventValidationError(field: "/priority", "must be 0 to 1000") }
        guard (-100...500).contains(priceAdjustmentPercent) else { throw EventValidationError(field: "/priceAdjustmentPercent", "must be -100 to 500") }
        if let notes { try Validate.length(notes, 1...1000, field: "/notes") }
    }
}

/// `offleash.area.removed.v1`.
package struct ServiceAreaRemoved: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "area", event: "removed", major: 1)

    package var areaId: String
    package var walkerId: String

    package var aggregateID: String { areaId }

    package func validate() throws {
        try Validate.uuid(areaId, field: "/areaId")
        try Validate.uuid(walkerId, field: "/walkerId")
    }
}
