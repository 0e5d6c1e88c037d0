/// The API-key scopes OPL routes ask for.
public enum OPLScopes {
    /// The app OPL's keys and tokens are for.
    public static let app = "opl"
    public static let readMobile = "read:mobile"
    public static let submitStrike = "write:submit-strike"
    public static let gpsSnapshot = "write:gps-snapshot"
    public static let dnsStats = "write:dns-stats"
    /// Moderators: the queue, decisions, the moderation page.
    public static let moderate = "moderate:opl"

    public static let all = [readMobile, submitStrike, gpsSnapshot, dnsStats, moderate]
}
