public import MusterEvents

/// `opl.dnsfilter.reported.v1`: one DNS filter's periodic counters. Aggregate: the filter instance.
public struct DNSStatsReported: EventPayload {
    public static let eventType = EventType(app: "opl", aggregate: "dnsfilter", event: "reported", major: 1)

    public struct Domain: Codable, Sendable, Equatable {
        public var domain: String
        public var count: Int
    }

    public var instanceId: String
    public var version: String
    public var uptime: Double
    public var totalQueries: Int
    public var queriesBlocked: Int
    public var queriesForwarded: Int
    public var bypassesIssued: Int
    public var activeSessions: Int
    public var blocklistSize: Int
    public var blocklistEmployers: Int
    public var lastBlocklistRefresh: String?
    public var topBlockedDomains: [Domain]
    public var queriesSinceLastReport: Int
    public var blockedSinceLastReport: Int
    public var forwardedSinceLastReport: Int
    public var bypassesSinceLastReport: Int
    /// The key that reported; set by the server, required in the log.
    public var reportedBy: String?

    /// The instance id as a subject token (clients choose it freely).
    public var aggregateID: String {
        String(instanceId.utf8.prefix(64).map { byte in
            let keep = (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45
            return Character(Unicode.Scalar(keep ? byte : UInt8(ascii: "_")))
        })
    }

    public func validate() throws {
        try Validate.length(instanceId, 1...100, field: "/instanceId")
        try Validate.length(version, 1...50, field: "/version")
        guard uptime.isFinite, uptime >= 0 else { throw EventValidationError(field: "/uptime", "must be a number of seconds, 0 or more") }
        for (name, value) in [("totalQueries", totalQueries), ("queriesBlocked", queriesBlocked), ("queriesForwarded", queriesForwarded),
                              ("bypassesIssued", bypassesIssued), ("activeSessions", activeSessions), ("blocklistSize", blocklistSize),
                              ("blocklistEmployers", blocklistEmployers), ("queriesSinceLastReport", queriesSinceLastReport),
                              ("blockedSinceLastReport", blockedSinceLastReport), ("forwardedSinceLastReport", forwardedSinceLastReport),
                              ("bypassesSinceLastReport", bypassesSinceLastReport)] where value < 0 {
            throw EventValidationError(field: "/\(name)", "must be 0 or more")
        }
        if let lastBlocklistRefresh { try Validate.length(lastBlocklistRefresh, 1...64, field: "/lastBlocklistRefresh") }
        try Validate.count(topBlockedDomains, 0...10, field: "/topBlockedDomains")
        for (index, entry) in topBlockedDomains.enumerated() {
            try Validate.length(entry.domain, 1...253, field: "/topBlockedDomains/\(index)/domain")
            guard entry.count >= 0 else { throw EventValidationError(field: "/topBlockedDomains/\(index)/count", "must be 0 or more") }
        }
        guard let reportedBy else { throw EventValidationError(field: "/reportedBy", "is required") }
        try Validate.length(reportedBy, 1...100, field: "/reportedBy")
    }
}
