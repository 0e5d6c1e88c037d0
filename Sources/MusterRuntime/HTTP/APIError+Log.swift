import MusterEvents

extension APIError {
    /// An event refused by its own rules: 422 naming the field as the request spells it
    /// (`action.startDate must be …`).
    public init(invalid error: EventValidationError) {
        self.init(.unprocessableContent, "\(error.field.dropFirst().replacingOccurrences(of: "/", with: ".")) \(error.reason)")
    }

    /// The log could not take an event just now (NATS away, no ack in time).
    public static let logUnavailable = APIError(.serviceUnavailable, "the event log is unavailable; retry shortly",
                                                headers: [.retryAfter: "5"])
}
