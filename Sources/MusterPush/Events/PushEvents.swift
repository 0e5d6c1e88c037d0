package import MusterEvents
import MusterPlatform

enum PushIDs {
    static func validate(_ id: String, field: String = "/pushId") throws {
        try Validate.prefixed(id, "psh_", .lowerHex, count: 32, field: field, "psh_ followed by 32 lowercase hex digits")
    }
}

/// `push.send.requested.v1`: an operator, an organiser or an app rule asked for a push. The
/// notifier resolves the audience when the push is due and records an outcome per device.
package struct PushRequested: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "push", aggregate: "send", event: "requested", major: 1)

    package var pushId: String
    package var app: String
    package var audience: PushAudience
    package var message: PushMessage
    /// APNs `apns-collapse-id` / FCM collapse key: a newer push with the same id replaces an older one.
    package var collapseId: String?
    /// After this (RFC 3339) the provider stops trying to reach an offline device.
    package var expiresAt: String?
    /// `high` (APNs 10) or `normal` (5).
    package var priority: String
    package var schedule: PushSchedule?
    package var requestedBy: String
    /// When what the push tells of happened (the event a notification rule turned into it): how
    /// long it took to reach the provider is measured from here.
    package var triggeredAt: String?
    /// A silent push: it wakes the app to refresh (APNs `content-available`, FCM data only) and shows
    /// nothing; `message`'s title and body are kept in the log as what it was for. Normal priority
    /// only, and at most one per device in `PushDispatcher.backgroundSpacing`, as Apple advises.
    package var background: Bool?

    package init(pushId: String, app: String, audience: PushAudience, message: PushMessage, collapseId: String? = nil,
                expiresAt: String? = nil, priority: String = "high", schedule: PushSchedule? = nil, requestedBy: String,
                triggeredAt: String? = nil, background: Bool? = nil) {
        self.pushId = pushId
        self.app = app
        self.audience = audience
        self.message = message
        self.collapseId = collapseId
        self.expiresAt = expiresAt
        self.priority = priority
        self.schedule = schedule
        self.requestedBy = requestedBy
        self.triggeredAt = triggeredAt
        self.background = background
    }

    package var aggregateID: String { pushId }

    package func validate() throws {
        try PushIDs.validate(pushId)
        try Validate.name(app, field: "/app")
        try audience.validate()
        try message.validate()
        if let collapseId {
            // APNs refuses a collapse id over 64 bytes.
            guard (1...64).contains(collapseId.utf8.count) else { throw EventValidationError(field: "/collapseId", "must be 1 to 64 bytes") }
        }
        if let expiresAt { try Validate.timestamp(expiresAt, field: "/expiresAt") }
        try Validate.oneOf(priority, ["high", "normal"], field: "/priority")
        try schedule?.validate()
        try Validate.length(requestedBy, 1...100, field: "/requestedBy")
        if let triggeredAt { try Validate.timestamp(triggeredAt, field: "/triggeredAt") }
        if background == true, priority != "normal" {
            throw EventValidationError(field: "/priority", "a background push has normal priority (APNs refuses 10 for one)")
        }
    }
}

/// `push.send.dispatched.v1`: the notifier is about to hand these devices' copies to their
/// providers. A device dispatched without an outcome (the notifier died in between) is not sent
/// again: it may have been delivered, and a push is never delivered twice.
package struct PushDispatched: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "push", aggregate: "send", event: "dispatched", major: 1)

    package var pushId: String
    package var deviceIds: [String]

    package init(pushId: String, deviceIds: [String]) {
        self.pushId = pushId
        self.deviceIds = deviceIds
    }

    package var aggregateID: String { pushId }

    package func validate() throws {
        try PushIDs.validate(pushId)
        try Validate.count(deviceIds, 1...1000, field: "/deviceIds")
        for id in deviceIds { try DeviceRules.validateID(id, field: "/deviceIds") }
    }
}

/// `push.send.delivered.v1`: the provider accepted the copy for this device.
package struct PushDelivered: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "push", aggregate: "send", event: "delivered", major: 1)
    package static let providers: Set<String> = ["apns", "fcm"]

    package var pushId: String
    package var deviceId: String
    package var provider: String
    /// APNs's `apns-id`, FCM's message name.
    package var providerId: String?

    package init(pushId: String, deviceId: String, provider: String, providerId: String?) {
        self.pushId = pushId
        self.deviceId = deviceId
        self.provider = provider
        self.providerId = providerId
    }

    package var aggregateID: String { pushId }

    package func validate() throws {
        try PushIDs.validate(pushId)
        try DeviceRules.validateID(deviceId)
        try Validate.oneOf(provider, Self.providers, field: "/provider")
        if let providerId { try Validate.length(providerId, 1...200, field: "/providerId") }
    }
}

/// `push.send.failed.v1`: this device's copy was not delivered, with the provider's reason
/// (`Unregistered`, `BadDeviceToken`, …) or ours (`NoProvider`, `InDoubt`, `Expired`).
package struct PushFailed: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "push", aggregate: "send", event: "failed", major: 1)
    package static let providers: Set<String> = ["apns", "fcm", "none"]

    package var pushId: String
    package var deviceId: String
    package var provider: String
    package var reason: String
    /// The provider's HTTP status, when it answered.
    package var status: Int?
    /// How many times it was tried.
    package var attempts: Int

    package init(pushId: String, deviceId: String, provider: String, reason: String, status: Int?, attempts: Int) {
        self.pushId = pushId
        self.deviceId = deviceId
        self.provider = provider
        self.reason = reason
        self.status = status
        self.attempts = attempts
    }

    package var aggregateID: String { pushId }

    package func validate() throws {
        try PushIDs.validate(pushId)
        try DeviceRules.validateID(deviceId)
        try Validate.oneOf(provider, Self.providers, field: "/provider")
        try Validate.length(reason, 1...100, field: "/reason")
        if let status, !(100...599).contains(status) { throw EventValidationError(field: "/status", "must be an HTTP status") }
        guard (0...100).contains(attempts) else { throw EventValidationError(field: "/attempts", "must be 0 to 100") }
    }
}

/// `push.send.completed.v1`: every device the push was for has its outcome.
package struct PushCompleted: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "push", aggregate: "send", event: "completed", major: 1)

    package var pushId: String
    package var targeted: Int

    package init(pushId: String, targeted: Int) {
        self.pushId = pushId
        self.targeted = targeted
    }

    package var aggregateID: String { pushId }

    package func validate() throws {
        try PushIDs.validate(pushId)
        guard targeted >= 0 else { throw EventValidationError(field: "/targeted", "must be 0 or more") }
    }
}

extension EventCatalog {
    /// The notifier's pushes: requests and their per-device outcomes.
    package static var push: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(PushRequested.self)
        catalog.register(PushDispatched.self)
        catalog.register(PushDelivered.self)
        catalog.register(PushFailed.self)
        catalog.register(PushCompleted.self)
        return catalog
    }
}
