import MusterEvents

/// Places a device's timestamps on the server's clock.
///
/// A phone's clock can be minutes or years off, but the interval between two of its own
/// readings is right: an event created 3 minutes before the batch was sent happened 3 minutes
/// before the batch arrived. So `occurred = received − (sent − created)`, the correction Sentry
/// applies with its envelope's `sent_at`. A batch kept offline for days is fine; one whose events
/// claim to come after the batch was sent, or from more than `maxAge` before, is not.
public struct EventClock: Sendable {
    public static let maxAge: Int64 = 30 * 86_400_000
    /// Tolerated `created_at` after `sent_at` (clock readings jitter a little).
    public static let tolerance: Int64 = 60_000

    public let receivedMillis: Int64
    public let sentMillis: Int64

    /// nil when `sent_at` is not a timestamp.
    public init?(sentAt: String, receivedMillis: Int64) {
        guard let sent = Timestamp.millis(sentAt) else { return nil }
        self.sentMillis = sent
        self.receivedMillis = receivedMillis
    }

    /// The device's skew: positive when the device clock is ahead of the server's.
    public var skewMillis: Int64 { sentMillis - receivedMillis }

    public func correct(_ deviceMillis: Int64) -> Int64 { receivedMillis - (sentMillis - deviceMillis) }

    /// The four clocks of an event created at `createdAt` (device time).
    public func times(createdAt: String, field: String) throws -> AnalyticsTimes {
        guard let created = Timestamp.millis(createdAt) else {
            throw ItemError(field: field, "must be an RFC 3339 date-time, like 2026-11-21T14:00:05.120Z")
        }
        guard created <= sentMillis + Self.tolerance else { throw ItemError(field: field, "is after the batch's sent_at") }
        guard sentMillis - created <= Self.maxAge else { throw ItemError(field: field, "is more than 30 days before the batch's sent_at") }
        return AnalyticsTimes(createdAt: Timestamp.string(millis: created), sentAt: Timestamp.string(millis: sentMillis),
                              receivedAt: Timestamp.string(millis: receivedMillis), occurredAt: Timestamp.string(millis: correct(created)))
    }
}

/// Why one item of a batch was refused, naming its field in the wire format.
public struct ItemError: Error, Sendable, CustomStringConvertible {
    public var field: String
    public var reason: String
    public init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }
    public var description: String { "\(field) \(reason)" }
}
