package import MusterEvents

/// What all analytics events share: the client's event id (dedup), the session (the aggregate),
/// the context and the clocks.
package protocol AnalyticsEvent: EventPayload {
    var eventId: String { get }
    var sessionId: String { get }
    var context: AnalyticsContext { get }
    var times: AnalyticsTimes { get }
}

extension AnalyticsEvent {
    package static var retention: EventRetention { .analytics }
    package var aggregateID: String { sessionId }

    func validateCommon() throws {
        try AnalyticsIDs.validateToken(eventId, field: "/eventId")
        try AnalyticsIDs.validateToken(sessionId, field: "/sessionId")
        try context.validate(field: "/context")
        try times.validate(field: "/times")
    }
}

enum Check {
    static func duration(_ value: Int, field: String) throws {
        guard (0...86_400_000).contains(value) else { throw EventValidationError(field: field, "must be 0 to 86400000 milliseconds") }
    }
}

/// `analytics.screen.viewed.v1`: a screen appeared; `durationMs` is the time on screen when the
/// app reports it on leaving.
package struct ScreenViewed: AnalyticsEvent {
    package static let eventType = EventType(app: "analytics", aggregate: "screen", event: "viewed", major: 1)
    package var eventId: String
    package var sessionId: String
    package var context: AnalyticsContext
    package var times: AnalyticsTimes
    package var screen: String
    package var previousScreen: String?
    package var durationMs: Int?

    package func validate() throws {
        try validateCommon()
        try Validate.length(screen, 1...100, field: "/screen")
        if let previousScreen { try Validate.length(previousScreen, 1...100, field: "/previousScreen") }
        if let durationMs { try Check.duration(durationMs, field: "/durationMs") }
    }
}

/// `analytics.screen.loaded.v1`: time-to-interactive of a screen, from appearing to content shown.
package struct ScreenLoaded: AnalyticsEvent {
    package static let eventType = EventType(app: "analytics", aggregate: "screen", event: "loaded", major: 1)
    package static let sources: Set<String> = ["cache", "network"]
    package var eventId: String
    package var sessionId: String
    package var context: AnalyticsContext
    package var times: AnalyticsTimes
    package var screen: String
    package var durationMs: Int
    /// `cache` or `network`.
    package var source: String

    package func validate() throws {
        try validateCommon()
        try Validate.length(screen, 1...100, field: "/screen")
        try Check.duration(durationMs, field: "/durationMs")
        try Validate.oneOf(source, Self.sources, field: "/source")
    }
}

/// `analytics.api.called.v1`: one API request the app made, failed or not (the error rate needs both).
package struct APICalled: AnalyticsEvent {
    package static let eventType = EventType(app: "analytics", aggregate: "api", event: "called", major: 1)
    package var eventId: String
    package var sessionId: String
    package var context: AnalyticsContext
    package var times: AnalyticsTimes
    package var method: String
    /// Path with ids replaced by `{id}` and query values redacted (see `EndpointNormalizer`).
    package var endpoint: String
    /// 0 when no answer came (offline, timeout).
    package var status: Int
    package var durationMs: Int?
    package var retryCount: Int
    package var failed: Bool
    package var errorType: String?
    package var errorMessage: String?

    package func validate() throws {
        try validateCommon()
        try Validate.length(method, 1...10, field: "/method")
        try Validate.length(endpoint, 1...200, field: "/endpoint")
        guard status == 0 || (100...599).contains(status) else { throw EventValidationError(field: "/status", "must be 0 or 100 to 599") }
        if let durationMs { try Check.duration(durationMs, field: "/durationMs") }
        guard (0...100).contains(retryCount) else { throw EventValidationError(field: "/retryCount", "must be 0 to 100") }
        if let errorType { try Validate.length(errorType, 1...100, field: "/errorType") }
        if let errorMessage { try Validate.length(errorMessage, 1...1000, field: "/errorMessage") }
    }
}

/// `analytics.funnel.reached.v1`: a person reached one step of a funnel.
package struct FunnelReached: AnalyticsEvent {
    package static let eventType = EventType(app: "analytics", aggregate: "funnel", event: "reached", major: 1)
    package static let segments: Set<String> = ["new", "returning"]
    package var eventId: String
    package var sessionId: String
    package var context: AnalyticsContext
    package var times: AnalyticsTimes
    package var funnel: String
    package var step: String
    /// `new` or `returning`, as the app knows its user.
    package var segment: String

    package init(eventId: String, sessionId: String, context: AnalyticsContext, times: AnalyticsTimes, funnel: String, step: String,
                segment: String) {
        self.eventId = eventId
        self.sessionId = sessionId
        self.context = context
        self.times = times
        self.funnel = funnel
        self.step = step
        self.segment = segment
    }

    package func validate() throws {
        try validateCommon()
        try AnalyticsIDs.validateToken(funnel, field: "/funnel")
        try AnalyticsIDs.validateToken(step, field: "/step")
        try Validate.oneOf(segment, Self.segments, field: "/segment")
    }
}

/// A custom event's property value: a string, a number or a boolean.
package enum PropertyValue: Codable, Sendable, Equatable {
    case string(String), number(Double), bool(Bool)

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let v = try? c.decode(Bool.self) { self = .bool(v) }
        else if let v = try? c.decode(Double.self) { self = .number(v) }
        else { self = .string(try c.decode(String.self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let v): try c.encode(v)
        case .number(let v): try c.encode(v)
        case .bool(let v): try c.encode(v)
        }
    }
}

/// `analytics.custom.tracked.v1`: an app's own event, self-described by its name.
package struct CustomTracked: AnalyticsEvent {
    package static let eventType = EventType(app: "analytics", aggregate: "custom", event: "tracked", major: 1)
    package var eventId: String
    package var sessionId: String
    package var context: AnalyticsContext
    package var times: AnalyticsTimes
    package var name: String
    package var properties: [String: PropertyValue]

    package func validate() throws {
        try validateCommon()
        try AnalyticsIDs.validateToken(name, field: "/name")
        try Validate.count(properties, 0...50, field: "/properties")
        for (key, value) in properties {
            try Validate.length(key, 1...64, field: "/properties")
            if case .string(let s) = value { try Validate.length(s, 0...1000, field: "/properties/\(key)") }
            if case .number(let n) = value, !n.isFinite { throw EventValidationError(field: "/properties/\(key)", "must be a finite number") }
        }
    }
}
