import MusterEvents
package import MusterJSON

// The analytics events are most of the log by count, and every analytics and funnel rebuild reads
// them all: they are read from the stored form by hand. CodecAgreementTests holds each equal to
// its Decodable conformance on random payloads.

// Each reader asks for its members in their stored (sorted) order: each lookup then compares
// the one member the last left the cursor at.
extension AnalyticsContext {
    init(storedFields fields: JSONFields) throws {
        let anonymousId = try fields.string("anonymousId")
        let app = try fields.required(fields.string("app"), "app")
        let appVersion = try fields.required(fields.string("appVersion"), "appVersion")
        let build = try fields.string("build")
        let deviceModel = try fields.required(fields.string("deviceModel"), "deviceModel")
        let locale = try fields.string("locale")
        let osName = try fields.required(fields.string("osName"), "osName")
        let osVersion = try fields.required(fields.string("osVersion"), "osVersion")
        self.init(app: app, appVersion: appVersion, build: build, osName: osName, osVersion: osVersion, deviceModel: deviceModel,
                  anonymousId: anonymousId, locale: locale)
    }
}

extension AnalyticsTimes {
    init(storedFields fields: JSONFields) throws {
        let createdAt = try fields.required(fields.string("createdAt"), "createdAt")
        let occurredAt = try fields.required(fields.string("occurredAt"), "occurredAt")
        let receivedAt = try fields.required(fields.string("receivedAt"), "receivedAt")
        let sentAt = try fields.required(fields.string("sentAt"), "sentAt")
        self.init(createdAt: createdAt, sentAt: sentAt, receivedAt: receivedAt, occurredAt: occurredAt)
    }
}

/// What every analytics event starts with. A tuple, not a struct: its parts move into the event
/// (a struct of them was copied there, eight strings retained, then destroyed, released again).
enum CommonStoredFields {
    static func read(_ fields: JSONFields) throws -> (eventId: String, sessionId: String, context: AnalyticsContext, times: AnalyticsTimes) {
        let context = try AnalyticsContext(storedFields: fields.required(fields.object("context"), "context"))
        let eventId = try fields.required(fields.string("eventId"), "eventId")
        let sessionId = try fields.required(fields.string("sessionId"), "sessionId")
        let times = try AnalyticsTimes(storedFields: fields.required(fields.object("times"), "times"))
        return (eventId, sessionId, context, times)
    }
}

extension ScreenViewed: StoredFieldsDecodable {
    package init(storedFields fields: JSONFields) throws {
        let (eventId, sessionId, context, times) = try CommonStoredFields.read(fields)
        self.init(eventId: eventId, sessionId: sessionId, context: context, times: times,
                  screen: try fields.required(fields.string("screen"), "screen"),
                  previousScreen: try fields.string("previousScreen"), durationMs: try fields.int("durationMs"))
    }
}

extension ScreenLoaded: StoredFieldsDecodable {
    package init(storedFields fields: JSONFields) throws {
        let (eventId, sessionId, context, times) = try CommonStoredFields.read(fields)
        self.init(eventId: eventId, sessionId: sessionId, context: context, times: times,
                  screen: try fields.required(fields.string("screen"), "screen"),
                  durationMs: try fields.required(fields.int("durationMs"), "durationMs"),
                  source: try fields.required(fields.string("source"), "source"))
    }
}

extension APICalled: StoredFieldsDecodable {
    package init(storedFields fields: JSONFields) throws {
        let (eventId, sessionId, context, times) = try CommonStoredFields.read(fields)
        self.init(eventId: eventId, sessionId: sessionId, context: context, times: times,
                  method: try fields.required(fields.string("method"), "method"),
                  endpoint: try fields.required(fields.string("endpoint"), "endpoint"),
                  status: try fields.required(fields.int("status"), "status"),
                  durationMs: try fields.int("durationMs"),
                  retryCount: try fields.required(fields.int("retryCount"), "retryCount"),
                  failed: try fields.required(fields.bool("failed"), "failed"),
                  errorType: try fields.string("errorType"), errorMessage: try fields.string("errorMessage"))
    }
}

extension FunnelReached: StoredFieldsDecodable {
    package init(storedFields fields: JSONFields) throws {
        let (eventId, sessionId, context, times) = try CommonStoredFields.read(fields)
        self.init(eventId: eventId, sessionId: sessionId, context: context, times: times,
                  funnel: try fields.required(fields.string("funnel"), "funnel"),
                  step: try fields.required(fields.string("step"), "step"),
                  segment: try fields.required(fields.string("segment"), "segment"))
    }
}

// Written by hand too (the collector appends every one), members in stored (sorted) order; the
// common members fall between each type's own.

extension AnalyticsContext {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("anonymousId", anonymousId)
        try object.string("app", app)
        try object.string("appVersion", appVersion)
        try object.string("build", build)
        try object.string("deviceModel", deviceModel)
        try object.string("locale", locale)
        try object.string("osName", osName)
        try object.string("osVersion", osVersion)
    }
}

extension AnalyticsTimes {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("createdAt", createdAt)
        try object.string("occurredAt", occurredAt)
        try object.string("receivedAt", receivedAt)
        try object.string("sentAt", sentAt)
    }
}

extension AnalyticsEvent {
    func encodeContext(_ object: inout JSONObjectWriter) throws {
        try object.object("context") { try context.encodeMembers(&$0) }
    }

    func encodeTimes(_ object: inout JSONObjectWriter) throws {
        try object.object("times") { try times.encodeMembers(&$0) }
    }
}

extension ScreenViewed: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try encodeContext(&object)
        try object.int("durationMs", durationMs)
        try object.string("eventId", eventId)
        try object.string("previousScreen", previousScreen)
        try object.string("screen", screen)
        try object.string("sessionId", sessionId)
        try encodeTimes(&object)
    }
}

extension ScreenLoaded: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try encodeContext(&object)
        try object.int("durationMs", durationMs)
        try object.string("eventId", eventId)
        try object.string("screen", screen)
        try object.string("sessionId", sessionId)
        try object.string("source", source)
        try encodeTimes(&object)
    }
}

extension APICalled: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try encodeContext(&object)
        try object.int("durationMs", durationMs)
        try object.string("endpoint", endpoint)
        try object.string("errorMessage", errorMessage)
        try object.string("errorType", errorType)
        try object.string("eventId", eventId)
        try object.bool("failed", failed)
        try object.string("method", method)
        try object.int("retryCount", retryCount)
        try object.string("sessionId", sessionId)
        try object.int("status", status)
        try encodeTimes(&object)
    }
}

extension FunnelReached: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try encodeContext(&object)
        try object.string("eventId", eventId)
        try object.string("funnel", funnel)
        try object.string("segment", segment)
        try object.string("sessionId", sessionId)
        try object.string("step", step)
        try encodeTimes(&object)
    }
}
