package import MusterEvents

/// `offleash.series.created.v1`: a customer's recurring walk, as the app asked for it. Each
/// occurrence is then an ordinary `offleash.schedule.booked.v1` naming the series, on its
/// walker's schedule (so no occurrence ever double-books a walker).
package struct SeriesCreated: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "series", event: "created", major: 1)
    package static let frequencies: Set<String> = ["weekly", "biweekly", "monthly"]

    package var seriesId: String
    package var orgId: String
    package var customerId: String
    package var walkerId: String
    package var serviceId: String
    package var locationId: String
    package var frequency: String
    /// 0 Sunday … 6 Saturday, as the app counts.
    package var dayOfWeek: Int
    /// The time of day as the app sent it (`9:00 AM`), shown back verbatim.
    package var timeSlot: String
    /// The same, read: minutes after local midnight in `timeZone`.
    package var minuteOfDay: Int
    package var timeZone: String
    /// The first local date, `YYYY-MM-DD`.
    package var startDate: String
    package var endDate: String?
    package var occurrences: Int?
    package var priceCents: Int
    package var sealedNotes: String?

    package var aggregateID: String { seriesId }

    package func validate() throws {
        for (value, field) in [(seriesId, "/seriesId"), (orgId, "/orgId"), (customerId, "/customerId"), (walkerId, "/walkerId"),
                               (serviceId, "/serviceId"), (locationId, "/locationId")] {
            try Validate.uuid(value, field: field)
        }
        try Validate.oneOf(frequency, Self.frequencies, field: "/frequency")
        guard (0...6).contains(dayOfWeek) else { throw EventValidationError(field: "/dayOfWeek", "must be 0 (Sunday) to 6") }
        try Validate.length(timeSlot, 1...40, field: "/timeSlot")
        guard (0..<1440).contains(minuteOfDay) else { throw EventValidationError(field: "/minuteOfDay", "must be 0 to 1439") }
        try Validate.length(timeZone, 1...64, field: "/timeZone")
        guard Timestamp.millis(day: startDate) != nil else { throw EventValidationError(field: "/startDate", "must be YYYY-MM-DD") }
        if let endDate, Timestamp.millis(day: endDate) == nil { throw EventValidationError(field: "/endDate", "must be YYYY-MM-DD") }
        if let occurrences, !(1...60).contains(occurrences) { throw EventValidationError(field: "/occurrences", "must be 1 to 60") }
        guard (endDate == nil) != (occurrences == nil) else { throw EventValidationError(field: "/occurrences", "exactly one of endDate and occurrences") }
        guard (0...1_000_000).contains(priceCents) else { throw EventValidationError(field: "/priceCents", "must be 0 to 1000000") }
        if let sealedNotes { try Validate.base64(sealedNotes, 40...8192, field: "/sealedNotes") }
    }
}

/// `offleash.series.cancelled.v1`: the customer ended the series; its future walks were
/// cancelled one by one before this (`offleash.schedule.changed.v1`), past ones are kept.
package struct SeriesCancelled: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "series", event: "cancelled", major: 1)

    package var seriesId: String
    package var customerId: String

    package var aggregateID: String { seriesId }

    package func validate() throws {
        try Validate.uuid(seriesId, field: "/seriesId")
        try Validate.uuid(customerId, field: "/customerId")
    }
}
