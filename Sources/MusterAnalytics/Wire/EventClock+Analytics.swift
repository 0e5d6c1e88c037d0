package import MusterEvents

extension EventClock {
    /// The four clocks of an event created at `createdAt` (device time).
    package func times(createdAt: String, field: String) throws -> AnalyticsTimes {
        guard let created = Timestamp.millis(createdAt) else {
            throw ItemError(field: field, "must be an RFC 3339 date-time, like 2026-11-21T14:00:05.120Z")
        }
        if let problem = problem(with: created) { throw ItemError(field: field, problem) }
        return AnalyticsTimes(createdAt: Timestamp.string(millis: created), sentAt: Timestamp.string(millis: sentMillis),
                              receivedAt: Timestamp.string(millis: receivedMillis), occurredAt: Timestamp.string(millis: correct(created)))
    }
}

/// Why one item of a batch was refused, naming its field in the wire format.
package struct ItemError: Error, Sendable, CustomStringConvertible {
    package var field: String
    package var reason: String
    package init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }
    package var description: String { "\(field) \(reason)" }
}
