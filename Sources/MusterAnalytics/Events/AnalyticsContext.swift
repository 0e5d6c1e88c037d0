import MusterEvents

/// What every analytics event and crash report says about where it came from: the app (from the
/// API key, never from the client), the build and the device. Denormalised into each event so a
/// projection never has to join.
package struct AnalyticsContext: Codable, Sendable, Equatable, Hashable {
    /// The Muster app of the key that sent it (`offleash`, `opl`, …).
    package var app: String
    package var appVersion: String
    package var build: String?
    package var osName: String
    package var osVersion: String
    package var deviceModel: String
    /// A random per-install id the app keeps (never an account id): the funnel's unit.
    package var anonymousId: String?
    package var locale: String?

    package init(app: String, appVersion: String, build: String? = nil, osName: String, osVersion: String, deviceModel: String,
                anonymousId: String? = nil, locale: String? = nil) {
        self.app = app
        self.appVersion = appVersion
        self.build = build
        self.osName = osName
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.anonymousId = anonymousId
        self.locale = locale
    }

    func validate(field: String) throws {
        try Validate.length(app, 1...32, field: field + "/app")
        try Validate.length(appVersion, 1...64, field: field + "/appVersion")
        if let build { try Validate.length(build, 1...64, field: field + "/build") }
        try Validate.length(osName, 1...32, field: field + "/osName")
        try Validate.length(osVersion, 1...64, field: field + "/osVersion")
        try Validate.length(deviceModel, 1...64, field: field + "/deviceModel")
        if let anonymousId { try AnalyticsIDs.validateToken(anonymousId, field: field + "/anonymousId") }
        if let locale { try Validate.length(locale, 1...35, field: field + "/locale") }
    }
}

/// The three clocks of an event (see `EventClock`): when the device says it happened, when the
/// device says it sent the batch, when the server got it; and the time Muster uses.
package struct AnalyticsTimes: Codable, Sendable, Equatable {
    package var createdAt: String
    package var sentAt: String
    package var receivedAt: String
    /// `receivedAt − (sentAt − createdAt)`: the device's own interval, placed on the server's clock.
    package var occurredAt: String

    package init(createdAt: String, sentAt: String, receivedAt: String, occurredAt: String) {
        self.createdAt = createdAt
        self.sentAt = sentAt
        self.receivedAt = receivedAt
        self.occurredAt = occurredAt
    }

    func validate(field: String) throws {
        try Validate.timestamp(createdAt, field: field + "/createdAt")
        try Validate.timestamp(sentAt, field: field + "/sentAt")
        try Validate.timestamp(receivedAt, field: field + "/receivedAt")
        try Validate.timestamp(occurredAt, field: field + "/occurredAt")
    }

    /// Milliseconds since 1970 of `occurredAt` (validated, so it parses).
    package var occurredMillis: Int64 { Timestamp.millis(occurredAt) ?? 0 }
}

/// Ids that become subject tokens or keys: letters, digits, `-`, `_`, 1 to 64.
package enum AnalyticsIDs {
    package static func validateToken(_ value: String, field: String) throws {
        guard value.utf8.count <= 64, Subject.isToken(value) else {
            throw EventValidationError(field: field, "must be 1 to 64 letters, digits, - or _")
        }
    }
}
