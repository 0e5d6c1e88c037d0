package import MusterEvents

/// `crash.report.recorded.v1`: one crash, redacted, with the fingerprint Muster groups it by.
/// Aggregate: the report (the client's id, so a resent report is one aggregate).
package struct CrashRecorded: EventPayload {
    package static let eventType = EventType(app: "crash", aggregate: "report", event: "recorded", major: 1)
    package static let retention = EventRetention.analytics

    package struct Exception: Codable, Sendable, Equatable {
        package var type: String
        package var reason: String?
    }

    package struct Frame: Codable, Sendable, Equatable {
        package var function: String
        package var module: String?
        package var file: String?
        package var line: Int?
        package var inApp: Bool

        package init(function: String, module: String?, file: String?, line: Int?, inApp: Bool) {
            self.function = function
            self.module = module
            self.file = file
            self.line = line
            self.inApp = inApp
        }
    }

    package struct Breadcrumb: Codable, Sendable, Equatable {
        package var at: String
        package var category: String
        package var message: String
        package var level: String?
    }

    package var reportId: String
    package var sessionId: String?
    package var context: AnalyticsContext
    package var times: AnalyticsTimes
    package var exception: Exception
    package var frames: [Frame]
    package var breadcrumbs: [Breadcrumb]
    /// `CrashFingerprint` of the exception type and the normalised top frames.
    package var fingerprint: String

    package var aggregateID: String { reportId }

    package func validate() throws {
        try AnalyticsIDs.validateToken(reportId, field: "/reportId")
        if let sessionId { try AnalyticsIDs.validateToken(sessionId, field: "/sessionId") }
        try context.validate(field: "/context")
        try times.validate(field: "/times")
        try Validate.length(exception.type, 1...200, field: "/exception/type")
        if let reason = exception.reason { try Validate.length(reason, 0...2000, field: "/exception/reason") }
        try Validate.count(frames, 0...200, field: "/frames")
        for (i, frame) in frames.enumerated() {
            try Validate.length(frame.function, 1...500, field: "/frames/\(i)/function")
            if let module = frame.module { try Validate.length(module, 1...200, field: "/frames/\(i)/module") }
            if let file = frame.file { try Validate.length(file, 1...500, field: "/frames/\(i)/file") }
            if let line = frame.line, line < 0 { throw EventValidationError(field: "/frames/\(i)/line", "must be 0 or more") }
        }
        try Validate.count(breadcrumbs, 0...100, field: "/breadcrumbs")
        for (i, crumb) in breadcrumbs.enumerated() {
            try Validate.timestamp(crumb.at, field: "/breadcrumbs/\(i)/at")
            try Validate.length(crumb.category, 1...100, field: "/breadcrumbs/\(i)/category")
            try Validate.length(crumb.message, 0...1000, field: "/breadcrumbs/\(i)/message")
            if let level = crumb.level { try Validate.length(level, 1...20, field: "/breadcrumbs/\(i)/level") }
        }
        try Validate.prefixed(fingerprint, "fp_", .lowerHex, count: 16, field: "/fingerprint", "fp_ and 16 lowercase hex digits")
    }
}
