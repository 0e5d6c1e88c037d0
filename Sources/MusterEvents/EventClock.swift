/// Places a device's timestamps on the server's clock.
///
/// A phone's clock can be minutes or years off, but the interval between two of its own
/// readings is right: an event created 3 minutes before the batch was sent happened 3 minutes
/// before the batch arrived. So `occurred = received − (sent − created)`, the correction Sentry
/// applies with its envelope's `sent_at`. A batch kept offline for days is fine; one whose events
/// claim to come after the batch was sent, or from more than `maxAge` before, is not. The
/// collector and PoP's progress sync both use it.
package struct EventClock: Sendable {
    package static let maxAge: Int64 = 30 * 86_400_000
    /// Tolerated `created_at` after `sent_at` (clock readings jitter a little).
    package static let tolerance: Int64 = 60_000

    package let receivedMillis: Int64
    package let sentMillis: Int64

    /// nil when `sent_at` is not a timestamp.
    package init?(sentAt: String, receivedMillis: Int64) {
        guard let sent = Timestamp.millis(sentAt) else { return nil }
        self.sentMillis = sent
        self.receivedMillis = receivedMillis
    }

    /// The device's skew: positive when the device clock is ahead of the server's.
    package var skewMillis: Int64 { sentMillis - receivedMillis }

    package func correct(_ deviceMillis: Int64) -> Int64 { receivedMillis - (sentMillis - deviceMillis) }

    /// Why a device time cannot be placed, or nil when it can.
    package func problem(with created: Int64) -> String? {
        if created > sentMillis + Self.tolerance { return "is after the batch's sent_at" }
        if sentMillis - created > Self.maxAge { return "is more than 30 days before the batch's sent_at" }
        return nil
    }
}
