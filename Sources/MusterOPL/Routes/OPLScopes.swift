/// The API-key scopes OPL routes ask for.
package enum OPLScopes {
    /// The app OPL's keys and tokens are for.
    package static let app = "opl"
    package static let readMobile = "read:mobile"
    package static let submitStrike = "write:submit-strike"
    package static let gpsSnapshot = "write:gps-snapshot"
    package static let dnsStats = "write:dns-stats"
    /// Moderators: the queue, decisions, the moderation page.
    package static let moderate = "moderate:opl"

    package static let all = [readMobile, submitStrike, gpsSnapshot, dnsStats, moderate]
}
