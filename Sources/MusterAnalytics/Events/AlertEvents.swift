package import MusterEvents

/// The rules that raise alerts.
package enum AlertRule: String, Codable, Sendable, CaseIterable {
    /// More than 5 % of an endpoint's requests failed in 5 minutes (above a minimum count).
    case errorRate = "error_rate"
    /// Crashes in the last hour well above the app's usual hourly rate.
    case crashSpike = "crash_spike"
}

/// `analytics.alert.raised.v1`: a rule started firing. Aggregate: the alert.
///
/// The id is derived from the rule, app, target, the minute it fired and how many alerts that
/// target had before, so re-evaluating the same log (a replay, a restart) names the same alert
/// and appends nothing new.
package struct AlertRaised: EventPayload {
    package static let eventType = EventType(app: "analytics", aggregate: "alert", event: "raised", major: 1)
    package var alertId: String
    package var rule: AlertRule
    package var app: String
    /// What the rule watches: the endpoint (`GET /bookings/{id}`) or `crashes`.
    package var target: String
    package var windowStart: String
    package var windowEnd: String
    /// The measured value (a failure ratio, or crashes in the window) and the threshold it crossed.
    package var observed: Double
    package var threshold: Double
    package var count: Int
    package var message: String

    package init(alertId: String, rule: AlertRule, app: String, target: String, windowStart: String, windowEnd: String, observed: Double,
                threshold: Double, count: Int, message: String) {
        self.alertId = alertId
        self.rule = rule
        self.app = app
        self.target = target
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.observed = observed
        self.threshold = threshold
        self.count = count
        self.message = message
    }

    package var aggregateID: String { alertId }

    package func validate() throws {
        try Validate.prefixed(alertId, "al_", .lowerHex, count: 16, field: "/alertId", "al_ and 16 lowercase hex digits")
        try Validate.length(app, 1...32, field: "/app")
        try Validate.length(target, 1...220, field: "/target")
        try Validate.timestamp(windowStart, field: "/windowStart")
        try Validate.timestamp(windowEnd, field: "/windowEnd")
        guard observed.isFinite, threshold.isFinite else { throw EventValidationError(field: "/observed", "must be finite") }
        guard count >= 0 else { throw EventValidationError(field: "/count", "must be 0 or more") }
        try Validate.length(message, 1...500, field: "/message")
    }
}

/// `analytics.alert.resolved.v1`: the rule stopped firing for that alert.
package struct AlertResolved: EventPayload {
    package static let eventType = EventType(app: "analytics", aggregate: "alert", event: "resolved", major: 1)
    package var alertId: String
    package var rule: AlertRule
    package var app: String
    package var target: String
    package var resolvedAt: String
    package var observed: Double
    package var count: Int
    package var message: String

    package init(alertId: String, rule: AlertRule, app: String, target: String, resolvedAt: String, observed: Double, count: Int,
                message: String) {
        self.alertId = alertId
        self.rule = rule
        self.app = app
        self.target = target
        self.resolvedAt = resolvedAt
        self.observed = observed
        self.count = count
        self.message = message
    }

    package var aggregateID: String { alertId }

    package func validate() throws {
        try Validate.prefixed(alertId, "al_", .lowerHex, count: 16, field: "/alertId", "al_ and 16 lowercase hex digits")
        try Validate.length(app, 1...32, field: "/app")
        try Validate.length(target, 1...220, field: "/target")
        try Validate.timestamp(resolvedAt, field: "/resolvedAt")
        guard observed.isFinite else { throw EventValidationError(field: "/observed", "must be finite") }
        guard count >= 0 else { throw EventValidationError(field: "/count", "must be 0 or more") }
        try Validate.length(message, 1...500, field: "/message")
    }
}
