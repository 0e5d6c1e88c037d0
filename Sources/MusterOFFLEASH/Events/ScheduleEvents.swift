package import MusterEvents

/// `offleash.schedule.booked.v1`: a walk on a walker's schedule. The aggregate is the walker's
/// schedule: every booking event of a walker is appended with the schedule's last sequence
/// expected, so two requests that both saw a slot free cannot both take it, whichever process
/// serves them.
package struct WalkBooked: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "schedule", event: "booked", major: 1)

    package var bookingId: String
    package var walkerId: String
    package var customerId: String
    package var serviceId: String
    package var locationId: String
    package var start: String
    package var end: String
    package var priceCents: Int
    /// The customer's notes, sealed with their key (free text about a person).
    package var sealedNotes: String?
    /// The recurring series this walk is an occurrence of, if any.
    package var seriesId: String?

    package init(bookingId: String, walkerId: String, customerId: String, serviceId: String, locationId: String, start: String, end: String,
                 priceCents: Int, sealedNotes: String? = nil, seriesId: String? = nil) {
        (self.bookingId, self.walkerId, self.customerId, self.serviceId, self.locationId) = (bookingId, walkerId, customerId, serviceId, locationId)
        (self.start, self.end, self.priceCents, self.sealedNotes, self.seriesId) = (start, end, priceCents, sealedNotes, seriesId)
    }

    package var aggregateID: String { walkerId }

    package func validate() throws {
        for (value, field) in [(bookingId, "/bookingId"), (walkerId, "/walkerId"), (customerId, "/customerId"),
                               (serviceId, "/serviceId"), (locationId, "/locationId")] {
            try Validate.uuid(value, field: field)
        }
        try Validate.timestamp(start, field: "/start")
        try Validate.timestamp(end, field: "/end")
        guard let from = Timestamp.millis(start), let to = Timestamp.millis(end), from < to else {
            throw EventValidationError(field: "/end", "must be after start")
        }
        guard (0...1_000_000).contains(priceCents) else { throw EventValidationError(field: "/priceCents", "must be 0 to 1000000") }
        if let sealedNotes { try Validate.base64(sealedNotes, 40...8192, field: "/sealedNotes") }
        if let seriesId { try Validate.uuid(seriesId, field: "/seriesId") }
    }
}

/// `offleash.schedule.changed.v1`: a booking confirmed, cancelled, completed or moved.
package struct WalkChanged: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "schedule", event: "changed", major: 1)
    package static let changes: Set<String> = ["confirmed", "cancelled", "completed", "rescheduled"]

    package var bookingId: String
    package var walkerId: String
    package var change: String
    /// The new times, for `rescheduled`.
    package var start: String?
    package var end: String?
    /// The role that made the change (`customer`, `walker`, `admin`).
    package var by: String

    package init(bookingId: String, walkerId: String, change: String, start: String? = nil, end: String? = nil, by: String) {
        (self.bookingId, self.walkerId, self.change, self.start, self.end, self.by) = (bookingId, walkerId, change, start, end, by)
    }

    package var aggregateID: String { walkerId }

    package func validate() throws {
        try Validate.uuid(bookingId, field: "/bookingId")
        try Validate.uuid(walkerId, field: "/walkerId")
        try Validate.oneOf(change, Self.changes, field: "/change")
        try Validate.oneOf(by, Set([OFFLEASHRole.customer, .walker, .admin].map(\.rawValue)), field: "/by")
        if change == "rescheduled" {
            guard let start, let end else { throw EventValidationError(field: "/start", "a reschedule needs start and end") }
            try Validate.timestamp(start, field: "/start")
            try Validate.timestamp(end, field: "/end")
            guard let from = Timestamp.millis(start), let to = Timestamp.millis(end), from < to else {
                throw EventValidationError(field: "/end", "must be after start")
            }
        }
    }
}

/// `offleash.schedule.blocked.v1`: a walker took time off (a break, an appointment). On the
/// walker's schedule like a booking, appended with the schedule's last sequence expected, so a
/// booking and a block never both take the same free time unseen.
package struct WalkerBlocked: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "schedule", event: "blocked", major: 1)

    package var blockId: String
    package var walkerId: String
    package var reason: String
    package var start: String
    package var end: String

    package init(blockId: String, walkerId: String, reason: String, start: String, end: String) {
        self.blockId = blockId
        self.walkerId = walkerId
        self.reason = reason
        self.start = start
        self.end = end
    }

    package var aggregateID: String { walkerId }

    package func validate() throws {
        try Validate.uuid(blockId, field: "/blockId")
        try Validate.uuid(walkerId, field: "/walkerId")
        try Validate.length(reason, 1...200, field: "/reason")
        try Validate.timestamp(start, field: "/start")
        try Validate.timestamp(end, field: "/end")
        guard let from = Timestamp.millis(start), let to = Timestamp.millis(end), from < to else {
            throw EventValidationError(field: "/end", "must be after start")
        }
    }
}

extension EventCatalog {
    /// OFFLEASH's events: the catalog of services, walkers' hours, customers' locations, schedules.
    package static var offleash: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(ServiceDefined.self)
        catalog.register(WalkerRostered.self)
        catalog.register(LocationSaved.self)
        catalog.register(LocationRemoved.self)
        catalog.register(LocationDefaulted.self)
        catalog.register(WalkBooked.self)
        catalog.register(WalkChanged.self)
        catalog.register(WalkerBlocked.self)
        catalog.register(SeriesCreated.self)
        catalog.register(SeriesCancelled.self)
        catalog.register(PetSaved.self)
        catalog.register(PetRemoved.self)
        catalog.register(WalkerProfiled.self)
        catalog.register(ServiceAreaSaved.self)
        catalog.register(ServiceAreaRemoved.self)
        catalog.register(FeedbackSubmitted.self)
        catalog.register(CardSaved.self)
        catalog.register(CardChanged.self)
        catalog.register(PaymentPriced.self)
        catalog.register(PaymentSettled.self)
        catalog.register(SubscriptionDefined.self)
        return catalog
    }
}
