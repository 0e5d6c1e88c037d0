package import Histogram

/// Histograms of milliseconds, 1 ms to 10 minutes at two significant digits (HdrHistogram).
package typealias MillisHistogram = Histogram<UInt64>

extension MillisHistogram {
    static func millis() -> MillisHistogram {
        MillisHistogram(lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: .two)
    }

    mutating func recordMillis(_ value: Int) {
        _ = record(UInt64(Swift.min(Swift.max(value, 1), 600_000)))
    }
}

/// Screen views and time on screen of one screen.
package struct ScreenStats: Codable, Sendable, Equatable {
    package var views = 0
    package var timed = 0
    package var totalMillis = 0
    package var timeOnScreen = MillisHistogram.millis()
}

/// Requests to one endpoint: totals, by status and error type, and per hour for the chart.
package struct EndpointStats: Codable, Sendable, Equatable {
    package struct Counts: Codable, Sendable, Equatable {
        package var requests = 0
        package var failures = 0
    }
    package var requests = 0
    package var failures = 0
    package var retries = 0
    package var statuses: [Int: Int] = [:]
    package var errorTypes: [String: Int] = [:]
    /// Hour (since 1970) → counts.
    package var hours: [Int64: Counts] = [:]
}

/// One crash group: every report with the same fingerprint.
package struct CrashGroup: Codable, Sendable, Equatable {
    package var fingerprint: String
    package var exceptionType: String
    package var reason: String?
    package var topFrames: [String]
    package var firstSeen: Int64
    package var lastSeen: Int64
    package var count = 0
    package var versions: [String: Int] = [:]
    package var osVersions: [String: Int] = [:]
    package var devices: [String: Int] = [:]
    /// The latest reports, newest last (at most `CrashGroup.recentLimit`).
    package var recent: [CrashRecorded] = []
    package static let recentLimit = 10
}

/// An alert as the log tells it (raised, maybe resolved).
package struct AlertRecord: Codable, Sendable, Equatable {
    package var raised: AlertRaised
    package var resolved: AlertResolved?
}
