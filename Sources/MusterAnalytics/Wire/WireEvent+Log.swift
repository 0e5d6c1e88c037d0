package import MusterEvents

/// The wire types an analytics batch may hold, and the log event each becomes.
package enum WireEventType: String, Sendable, CaseIterable {
    case screenView = "screen_view"
    case timeToInteractive = "time_to_interactive"
    case apiCall = "api_call"
    case funnelStep = "funnel_step"
    case custom
}

extension WireContext {
    /// The log's context: the app from the key, every string redacted.
    func logContext(app: String, redactor: Redactor) -> AnalyticsContext {
        AnalyticsContext(app: app, appVersion: redactor.redact(appVersion), build: build.map(redactor.redact),
                         osName: redactor.redact(osName), osVersion: redactor.redact(osVersion),
                         deviceModel: redactor.redact(deviceModel), anonymousId: anonymousId, locale: locale.map(redactor.redact))
    }
}

extension WireEvent {
    /// The log event for this wire event, redacted; `ItemError` names the wire field. Its rules
    /// (lengths, ranges) are checked once, by the log when it prepares the append.
    package func logEvent(context: AnalyticsContext, clock: EventClock, redactor: Redactor) throws -> any AnalyticsEvent {
        guard let kind = WireEventType(rawValue: type) else {
            throw ItemError(field: "type", "must be one of \(WireEventType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (version ?? 1) == 1 else { throw ItemError(field: "version", "\(type) has only version 1") }
        let times = try clock.times(createdAt: createdAt, field: "created_at")
        func required<T>(_ value: T?, _ field: String) throws -> T {
            guard let value else { throw ItemError(field: field, "is required for \(type)") }
            return value
        }
        let r = redactor.redact
        let event: any AnalyticsEvent
        switch kind {
        case .screenView:
            event = ScreenViewed(eventId: id, sessionId: sessionId, context: context, times: times, screen: r(try required(screen, "screen")),
                                 previousScreen: previousScreen.map(r), durationMs: durationMs)
        case .timeToInteractive:
            event = ScreenLoaded(eventId: id, sessionId: sessionId, context: context, times: times, screen: r(try required(screen, "screen")),
                                 durationMs: try required(durationMs, "duration_ms"), source: try required(source, "source"))
        case .apiCall:
            let status = try required(status, "status")
            event = APICalled(eventId: id, sessionId: sessionId, context: context, times: times,
                              method: try required(method, "method").uppercased(),
                              endpoint: EndpointNormalizer.normalize(try required(endpoint, "endpoint"), redactor: redactor),
                              status: status, durationMs: durationMs, retryCount: retryCount ?? 0,
                              failed: error != nil || status == 0 || status >= 500,
                              errorType: error.map { r($0.type) }, errorMessage: error?.message.map(r))
        case .funnelStep:
            event = FunnelReached(eventId: id, sessionId: sessionId, context: context, times: times, funnel: try required(funnel, "funnel"),
                                  step: try required(step, "step"), segment: try required(segment, "segment"))
        case .custom:
            var redacted: [String: PropertyValue] = [:]
            for (key, value) in properties ?? [:] {
                if case .string(let s) = value { redacted[r(key)] = .string(r(s)) } else { redacted[r(key)] = value }
            }
            event = CustomTracked(eventId: id, sessionId: sessionId, context: context, times: times, name: try required(name, "name"),
                                  properties: redacted)
        }
        return event
    }
}

extension WireCrashReport {
    package func logEvent(app: String, clock: EventClock, redactor: Redactor) throws -> CrashRecorded {
        let times = try clock.times(createdAt: createdAt, field: "created_at")
        let r = redactor.redact
        let frames = (self.frames ?? []).map { f in
            CrashRecorded.Frame(function: r(f.function), module: f.module.map(r), file: f.file.map(r), line: f.line, inApp: f.inApp ?? false)
        }
        var crumbs: [CrashRecorded.Breadcrumb] = []
        for (i, crumb) in (breadcrumbs ?? []).enumerated() {
            guard let at = Timestamp.millis(crumb.timestamp) else {
                throw ItemError(field: "breadcrumbs.\(i).timestamp", "must be an RFC 3339 date-time")
            }
            crumbs.append(.init(at: Timestamp.string(millis: clock.correct(at)), category: r(crumb.category), message: r(crumb.message),
                                level: crumb.level.map(r)))
        }
        let type = r(exception.type)
        return CrashRecorded(reportId: id, sessionId: sessionId, context: context.logContext(app: app, redactor: redactor), times: times,
                             exception: .init(type: type, reason: exception.reason.map(r)), frames: frames, breadcrumbs: crumbs,
                             fingerprint: CrashFingerprint.make(type: type, frames: frames))
    }
}

/// Log validation errors in the wire's names: `/durationMs` → `duration_ms`, `/eventId` → `id`.
enum WireNames {
    static let renamed = ["eventId": "id", "reportId": "id", "times.createdAt": "created_at", "inApp": "in_app", "at": "timestamp"]

    static func wireName(_ pointer: String) -> String {
        let path = pointer.split(separator: "/").joined(separator: ".")
        if let name = renamed[path] { return name }
        return path.split(separator: ".").map { part in
            let key = renamed[String(part)] ?? String(part)
            var out = ""
            for c in key {
                if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
            }
            return out
        }.joined(separator: ".")
    }
}
