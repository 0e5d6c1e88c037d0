import Foundation
import HTTPTypes
package import MusterEvents
package import MusterLog

extension APIError {
    /// An event refused by its own rules: 422 naming the field as the request spells it
    /// (`action.startDate must be …`).
    package init(invalid error: EventValidationError) {
        self.init(.unprocessableContent, "\(error.field.dropFirst().replacingOccurrences(of: "/", with: ".")) \(error.reason)")
    }

    /// The log did not confirm a write in time (NATS away, no ack). The message may still reach
    /// the log (libnats sends what it buffered once it reconnects), so the answer says so: a
    /// retry with the same `Idempotency-Key` is stored once, a retry without one may be stored twice.
    package static let logUnavailable = APIError(
        .serviceUnavailable,
        "the event log did not confirm this write; it may have been stored. Retry after a few seconds with the same Idempotency-Key",
        headers: [.retryAfter: "5"])
}

extension APIError {
    /// The log's store is full: nothing was stored, and nothing will be until operators free space.
    /// 503 rather than 507: every client already retries a 503 after `Retry-After`.
    package static let logFull = APIError(
        .serviceUnavailable,
        "the event log is full; nothing was stored. Retry later: writes resume once operators free space",
        headers: [.retryAfter: "60"])
}

/// The one mapping of the log's refusals: an invalid event is 422 naming the field, too large 413,
/// a conflict 409, an unconfirmed write the honest 503 with `Retry-After`.
extension AppendError: HTTPMappedError {
    package var apiError: APIError {
        switch code {
        case .invalid: payloadError.map(APIError.init(invalid:)) ?? APIError(.unprocessableContent, message)
        case .tooLarge: APIError(.contentTooLarge, message)
        case .conflict: APIError(.conflict, message)
        case .unavailable: APIError.logUnavailable
        case .full: APIError.logFull
        }
    }
}
