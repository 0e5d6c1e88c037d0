import MusterJSON

/// What one answer from APNs means for that copy: Apple's status and `reason` decide, not the
/// status alone. Pure; the client and its tests both read answers through it.
package enum APNsOutcome: Sendable, Equatable {
    case delivered(apnsID: String?)
    /// Try again after a backoff (`429 TooManyRequests`, `5xx`, an idle connection).
    case retry(reason: String, status: Int?)
    /// `403 ExpiredProviderToken`: renew the provider token, then try again.
    case renewToken
    /// Never retried. `invalidatesToken` for `410 Unregistered` and `400 BadDeviceToken`, with
    /// the time (milliseconds since 1970) from which the token is invalid when Apple says it.
    case refused(reason: String, status: Int, invalidatesToken: Bool, since: Int64?)
}

package enum APNsResponse {
    /// Apple's error body: `{"reason": "...", "timestamp": 1700000000000}` (the timestamp on 410 only).
    struct Body: Decodable {
        var reason: String?
        var timestamp: Int64?
    }

    /// The largest error body read; Apple's are well under 200 bytes.
    package static let maxBody = 4096

    package static func outcome(status: Int, apnsID: String?, body: [UInt8]) -> APNsOutcome {
        if status == 200 { return .delivered(apnsID: apnsID.flatMap { $0.utf8.count <= 200 ? $0 : nil }) }
        let parsed = body.count <= maxBody ? try? JSONBytesDecoder().decode(Body.self, from: body) : nil
        let reason = parsed?.reason.flatMap(cleanReason) ?? "HTTP\(status)"
        switch (status, reason) {
        case (403, "ExpiredProviderToken"):
            return .renewToken
        case (429, "TooManyProviderTokenUpdates"):
            // Another process renewed too often; waiting lets the shared token settle.
            return .retry(reason: reason, status: status)
        case (400, "IdleTimeout"), (429, _), (500...599, _):
            return .retry(reason: reason, status: status)
        case (410, _):
            return .refused(reason: reason, status: status, invalidatesToken: true, since: parsed?.timestamp.flatMap(plausibleMillis))
        case (400, "BadDeviceToken"):
            return .refused(reason: reason, status: status, invalidatesToken: true, since: nil)
        default:
            // BadDeviceToken's neighbours: DeviceTokenNotForTopic, PayloadTooLarge, Forbidden, BadTopic, …
            return .refused(reason: reason, status: status, invalidatesToken: false, since: nil)
        }
    }

    /// Apple's reasons are short ASCII words; anything else is reported by its status.
    static func cleanReason(_ reason: String) -> String? {
        guard (1...64).contains(reason.utf8.count), reason.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) }) else {
            return nil
        }
        return reason
    }

    /// Between 2015 and 2100: a timestamp outside is not one.
    static func plausibleMillis(_ value: Int64) -> Int64? {
        (1_420_070_400_000...4_102_444_800_000).contains(value) ? value : nil
    }
}
