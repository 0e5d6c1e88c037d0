package import MusterEvents

/// `opl.dnsfilter.reported.v1`: one DNS filter's periodic counters. Aggregate: the filter instance.
package struct DNSStatsReported: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "dnsfilter", event: "reported", major: 1)

    package struct Domain: Codable, Sendable, Equatable {
        package var domain: String
        package var count: Int
    }

    package var instanceId: String
    package var version: String
    package var uptime: Double
    package var totalQueries: Int
    package var queriesBlocked: Int
    package var queriesForwarded: Int
    package var bypassesIssued: Int
    package var activeSessions: Int
    package var blocklistSize: Int
    package var blocklistEmployers: Int
    package var lastBlocklistRefresh: String?
    package var topBlockedDomains: [Domain]
    package var queriesSinceLastReport: Int
    package var blockedSinceLastReport: Int
    package var forwardedSinceLastReport: Int
    package var bypassesSinceLastReport: Int
    /// The key that reported; set by the server, required in the log.
    package var reportedBy: String?

    /// The instance id as a subject token (clients choose it freely).
    package var aggregateID: String {
        String(instanceId.utf8.prefix(64).map { byte in
            let keep = (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45
            return Character(Unicode.Scalar(keep ? byte : UInt8(ascii: "_")))
        })
    }

    package func validate() throws {
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
