public import MusterEvents

/// `offleash.service.defined.v1`: a service of an organisation's catalog as it now is (created,
/// changed or retired: `isActive` false). The whole definition each time, so a reader needs no history.
public struct ServiceDefined: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "service", event: "defined", major: 1)

    public var serviceId: String
    public var orgId: String
    public var name: String
    public var description: String?
    public var durationMinutes: Int
    public var priceCents: Int
    public var isActive: Bool

    public var aggregateID: String { serviceId }

    public func validate() throws {
        try Validate.uuid(serviceId, field: "/serviceId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.length(name, 1...100, field: "/name")
        if let description { try Validate.length(description, 1...1000, field: "/description") }
        guard (5...720).contains(durationMinutes) else { throw EventValidationError(field: "/durationMinutes", "must be 5 to 720") }
        guard (0...1_000_000).contains(priceCents) else { throw EventValidationError(field: "/priceCents", "must be 0 to 1000000") }
    }
}

/// `offleash.walker.rostered.v1`: when a walker works, per weekday, in their time zone.
public struct WalkerRostered: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "walker", event: "rostered", major: 1)

    public struct Shift: Codable, Sendable, Equatable {
        /// ISO weekday: 1 Monday … 7 Sunday.
        public var weekday: Int
        /// Minutes after local midnight.
        public var startMinute: Int
        public var endMinute: Int

        public init(weekday: Int, startMinute: Int, endMinute: Int) {
            self.weekday = weekday
            self.startMinute = startMinute
            self.endMinute = endMinute
        }
    }

    public var walkerId: String
    public var orgId: String
    /// An IANA zone (`America/Chicago`).
    public var timeZone: String
    public var shifts: [Shift]

    public var aggregateID: String { walkerId }

    public func validate() throws {
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
