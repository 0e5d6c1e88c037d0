public import Histogram

/// Histograms of milliseconds, 1 ms to 10 minutes at two significant digits (HdrHistogram).
public typealias MillisHistogram = Histogram<UInt64>

extension MillisHistogram {
    static func millis() -> MillisHistogram {
        MillisHistogram(lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: .two)
    }

    mutating func recordMillis(_ value: Int) {
        _ = record(UInt64(Swift.min(Swift.max(value, 1), 600_000)))
    }
}

/// Screen views and time on screen of one screen.
public struct ScreenStats: Codable, Sendable, Equatable {
    public var views = 0
    public var timed = 0
    public var totalMillis = 0
    public var timeOnScreen = MillisHistogram.millis()
}

/// Requests to one endpoint: totals, by status and error type, and per hour for the chart.
public struct EndpointStats: Codable, Sendable, Equatable {
    public struct Counts: Codable, Sendable, Equatable {
        public var requests = 0
        public var failures = 0
    }
    public var requests = 0
    public var failures = 0
    public var retries = 0
    public var statuses: [Int: Int] = [:]
    public var errorTypes: [String: Int] = [:]
    /// Hour (since 1970) → counts.
    public var hours: [Int64: Counts] = [:]
}

/// One crash group: every report with the same fingerprint.
public struct CrashGroup: Codable, Sendable, Equatable {
    public var fingerprint: String
    public var exceptionType: String
    public var reason: String?
    public var topFrames: [String]
    public var firstSeen: Int64
    public var lastSeen: Int64
    public var count = 0
    public var versions: [String: Int] = [:]
    public var osVersions: [String: Int] = [:]
    public var devices: [String: Int] = [:]
    /// The latest reports, newest last (at most `CrashGroup.recentLimit`).
    public var recent: [CrashRecorded] = []
    public static let recentLimit = 10
}

/// An alert as the log tells it (raised, maybe resolved).
public struct AlertRecord: Codable, Sendable, Equatable {
    public var raised: AlertRaised
    public var resolved: AlertResolved?
}
