public import MusterEvents
public import MusterJSON

// The analytics events are most of the log by count, and every analytics and funnel rebuild reads
// them all: they are read from the stored form by hand. CodecAgreementTests holds each equal to
// its Decodable conformance on random payloads.

extension AnalyticsContext {
    init(storedFields fields: JSONFields) throws {
        self.init(app: try fields.required(fields.string("app"), "app"),
                  appVersion: try fields.required(fields.string("appVersion"), "appVersion"),
                  build: try fields.string("build"),
                  osName: try fields.required(fields.string("osName"), "osName"),
                  osVersion: try fields.required(fields.string("osVersion"), "osVersion"),
                  deviceModel: try fields.required(fields.string("deviceModel"), "deviceModel"),
                  anonymousId: try fields.string("anonymousId"),
                  locale: try fields.string("locale"))
    }
}

extension AnalyticsTimes {
    init(storedFields fields: JSONFields) throws {
        self.init(createdAt: try fields.required(fields.string("createdAt"), "createdAt"),
                  sentAt: try fields.required(fields.string("sentAt"), "sentAt"),
                  receivedAt: try fields.required(fields.string("receivedAt"), "receivedAt"),
                  occurredAt: try fields.required(fields.string("occurredAt"), "occurredAt"))
    }
}

/// What every analytics event starts with.
struct CommonStoredFields {
    var eventId, sessionId: String
    var context: AnalyticsContext
    var times: AnalyticsTimes

    init(_ fields: JSONFields) throws {
        eventId = try fields.required(fields.string("eventId"), "eventId")
        sessionId = try fields.required(fields.string("sessionId"), "sessionId")
        context = try AnalyticsContext(storedFields: fields.required(fields.object("context"), "context"))
        times = try AnalyticsTimes(storedFields: fields.required(fields.object("times"), "times"))
    }
}

extension ScreenViewed: StoredFieldsDecodable {
    public init(storedFields fields: JSONFields) throws {
        let common = try CommonStoredFields(fields)
        self.init(eventId: common.eventId, sessionId: common.sessionId, context: common.context, times: common.times,
                  screen: try fields.required(fields.string("screen"), "screen"),
                  previousScreen: try fields.string("previousScreen"), durationMs: try fields.int("durationMs"))
    }
}

extension ScreenLoaded: StoredFieldsDecodable {
    public init(storedFields fields: JSONFields) throws {
        let common = try CommonStoredFields(fields)
        self.init(eventId: common.eventId, sessionId: common.sessionId, context: common.context, times: common.times,
                  screen: try fields.required(fields.string("screen"), "screen"),
                  durationMs: try fields.required(fields.int("durationMs"), "durationMs"),
                  source: try fields.required(fields.string("source"), "source"))
    }
}

extension APICalled: StoredFieldsDecodable {
    public init(storedFields fields: JSONFields) throws {
        let common = try CommonStoredFields(fields)
        self.init(eventId: common.eventId, sessionId: common.sessionId, context: common.context, times: common.times,
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
    public init(storedFields fields: JSONFields) throws {
        let common = try CommonStoredFields(fields)
        self.init(eventId: common.eventId, sessionId: common.sessionId, context: common.context, times: common.times,
                  funnel: try fields.required(fields.string("funnel"), "funnel"),
                  step: try fields.required(fields.string("step"), "step"),
                  segment: try fields.required(fields.string("segment"), "segment"))
    }
}
