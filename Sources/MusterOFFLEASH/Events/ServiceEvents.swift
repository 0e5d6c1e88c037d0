package import MusterEvents

/// `offleash.service.defined.v1`: a service of an organisation's catalog as it now is (created,
/// changed or retired: `isActive` false). The whole definition each time, so a reader needs no history.
package struct ServiceDefined: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "service", event: "defined", major: 1)

    package var serviceId: String
    package var orgId: String
    package var name: String
    package var description: String?
    package var durationMinutes: Int
    package var priceCents: Int
    package var isActive: Bool

    package init(serviceId: String, orgId: String, name: String, description: String? = nil, durationMinutes: Int, priceCents: Int, isActive: Bool) {
        (self.serviceId, self.orgId, self.name, self.description) = (serviceId, orgId, name, description)
        (self.durationMinutes, self.priceCents, self.isActive) = (durationMinutes, priceCents, isActive)
    }

    package var aggregateID: String { serviceId }

    package func validate() throws {
        try Validate.uuid(serviceId, field: "/serviceId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.length(name, 1...100, field: "/name")
        if let description { try Validate.length(description, 1...1000, field: "/description") }
        guard (5...720).contains(durationMinutes) else { throw EventValidationError(field: "/durationMinutes", "must be 5 to 720") }
        guard (0...1_000_000).contains(priceCents) else { throw EventValidationError(field: "/priceCents", "must be 0 to 1000000") }
    }
}

/// `offleash.walker.rostered.v1`: when a walker works, per weekday, in their time zone.
package struct WalkerRostered: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "walker", event: "rostered", major: 1)

    package struct Shift: Codable, Sendable, Equatable {
        /// ISO weekday: 1 Monday … 7 Sunday.
        package var weekday: Int
        /// Minutes after local midnight.
        package var startMinute: Int
        package var endMinute: Int

        package init(weekday: Int, startMinute: Int, endMinute: Int) {
            self.weekday = weekday
            self.startMinute = startMinute
            self.endMinute = endMinute
        }
    }

    package var walkerId: String
    package var orgId: String
    /// An IANA zone (`America/Chicago`).
    package var timeZone: String
    package var shifts: [Shift]

    package var aggregateID: String { walkerId }

    package func validate() throws {
        try Validate.uuid(walkerId, field: "/walkerId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.length(timeZone, 1...64, field: "/timeZone")
        try Validate.count(shifts, 0...28, field: "/shifts")
        for (index, shift) in shifts.enumerated() {
            guard (1...7).contains(shift.weekday) else { throw EventValidationError(field: "/shifts/\(index)/weekday", "must be 1 to 7") }
            guard (0..<1440).contains(shift.startMinute), (1...1440).contains(shift.endMinute), shift.startMinute < shift.endMinute else {
                throw EventValidationError(field: "/shifts/\(index)", "must start before it ends, within one day (minutes 0 to 1440)")
            }
        }
    }
}
