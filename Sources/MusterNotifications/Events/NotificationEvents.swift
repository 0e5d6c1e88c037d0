import Foundation
package import MusterEvents
import MusterPlatform

/// The subject-safe ids of notification keys and decisions (`ntk_`/`ntf_` + 32 hex).
package enum NotificationIDs {
    static func validate(_ id: String, _ prefix: String, field: String) throws {
        try Validate.prefixed(id, prefix, .lowerHex, count: 32, field: field, "\(prefix) followed by 32 lowercase hex digits")
    }

    static func validateKey(_ key: String, field: String = "/key") throws {
        try Validate.length(key, 1...200, field: field)
        guard key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { throw EventValidationError(field: field, "must be printable ASCII without spaces") }
    }
}

/// `platform.notification.scheduled.v1`: a message due later — a reminder, or a message waiting
/// for its thing to settle. A later one with the same key replaces it; `cancelled` drops it. When
/// it is due a notifier decides each channel (`sent`, `suppressed`, `deferred`), exactly once.
package struct NotificationScheduled: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "notification", event: "scheduled", major: 1)
    package static let reasons: Set<String> = ["reminder", "gathering"]

    package var key: String
    package var notice: Notice
    package var dueAt: String
    /// The channels the category offers; the person's preferences choose among them when it is due.
    package var channels: [String]
    package var reason: String

    package init(key: String, notice: Notice, dueAt: String, channels: [String], reason: String) {
        self.key = key
        self.notice = notice
        self.dueAt = dueAt
        self.channels = channels
        self.reason = reason
    }

    package var aggregateID: String { NotificationKeys.subject(key) }

    package func validate() throws {
        try NotificationIDs.validateKey(key)
        try notice.validate()
        try Validate.timestamp(dueAt, field: "/dueAt")
        try Validate.count(channels, 1...3, field: "/channels")
        for channel in channels { try Validate.oneOf(channel, Set(NotificationChannel.allCases.map(\.rawValue)), field: "/channels") }
        try Validate.oneOf(reason, Self.reasons, field: "/reason")
    }
}

/// `platform.notification.cancelled.v1`: a scheduled message is no longer wanted (its walk was
/// cancelled); nothing of it is sent.
package struct NotificationCancelled: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "notification", event: "cancelled", major: 1)

    package var key: String
    package var reason: String

    package init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    package var aggregateID: String { NotificationKeys.subject(key) }

    package func validate() throws {
        try NotificationIDs.validateKey(key)
        try Validate.length(reason, 1...100, field: "/reason")
    }
}

/// Which message and channel a decision is about. `decisionId` is derived from the key, the
/// version and the channel, and each decision is appended expecting its subject empty: two
/// notifiers deciding the same message append one decision.
package struct NotificationDecision: Codable, Sendable, Equatable {
    package var decisionId: String
    /// The message's key, and the sequence of what it was decided from (the scheduling, the
    /// deferral, or the app's event for a message sent at once).
    package var key: String
    package var version: UInt64
    package var app: String
    package var category: String
    package var personId: String?
    package var deviceId: String?
    package var about: String
    package var channel: String

    package init(key: String, version: UInt64, notice: Notice, channel: NotificationChannel) {
        self.decisionId = NotificationKeys.decision(key: key, version: version, channel: channel)
        self.key = key
        self.version = version
        self.app = notice.app
        self.category = notice.category
        self.personId = notice.personId
        self.deviceId = notice.deviceId
        self.about = notice.about
        self.channel = channel.rawValue
    }

    func validate() throws {
        try NotificationIDs.validate(decisionId, "ntf_", field: "/decision/decisionId")
        try NotificationIDs.validateKey(key, field: "/decision/key")
        try Validate.name(app, field: "/decision/app")
        try NotificationNames.validateCategory(category, field: "/decision/category")
        guard (personId == nil) != (deviceId == nil) else { throw EventValidationError(field: "/decision/personId", "a decision is for a person or a device") }
        if let personId { try Validate.uuid(personId, field: "/decision/personId") }
        if let deviceId { try DeviceRules.validateID(deviceId, field: "/decision/deviceId") }
        try Validate.length(about, 1...200, field: "/decision/about")
        try Validate.oneOf(channel, Set(NotificationChannel.allCases.map(\.rawValue)), field: "/decision/channel")
    }
}

/// `platform.notification.sent.v1`: the message was handed to its channel (a push request, the
/// mail or SMS provider).
package struct NotificationSent: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "notification", event: "sent", major: 1)

    package var decision: NotificationDecision
    /// The push that carries it (`GET /api/push/{id}` tells how it went).
    package var pushId: String?

    package init(decision: NotificationDecision, pushId: String?) {
        self.decision = decision
        self.pushId = pushId
    }

    package var aggregateID: String { decision.decisionId }

    package func validate() throws {
        try decision.validate()
        if let pushId { try NotificationIDs.validate(pushId, "psh_", field: "/pushId") }
    }
}

/// `platform.notification.suppressed.v1`: the message was not sent on this channel, and why:
/// `preference` (the person turned it off), `unsubscribed`, `no-device`, `no-address`,
/// `no-provider` (the server has no mail or SMS provider).
package struct NotificationSuppressed: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "notification", event: "suppressed", major: 1)
    package static let reasons: Set<String> = ["preference", "no-device", "no-address", "no-provider"]

    package var decision: NotificationDecision
    package var reason: String

    package init(decision: NotificationDecision, reason: String) {
        self.decision = decision
        self.reason = reason
    }

    package var aggregateID: String { decision.decisionId }

    package func validate() throws {
        try decision.validate()
        try Validate.oneOf(reason, Self.reasons, field: "/reason")
    }
}

/// `platform.notification.deferred.v1`: the message waits on this channel until `until` (the end
/// of the person's quiet hours), then is decided again. Deferred, never dropped.
package struct NotificationDeferred: EventPayload, StoredExactly, Equatable {
    package static let eventType = EventType(app: "platform", aggregate: "notification", event: "deferred", major: 1)
    package static let reasons: Set<String> = ["quiet-hours"]

    package var decision: NotificationDecision
    package var until: String
    package var reason: String
    package var notice: Notice

    package init(decision: NotificationDecision, until: String, reason: String, notice: Notice) {
        self.decision = decision
        self.until = until
        self.reason = reason
        self.notice = notice
    }

    package var aggregateID: String { decision.decisionId }

    package func validate() throws {
        try decision.validate()
        try Validate.timestamp(until, field: "/until")
        try Validate.oneOf(reason, Self.reasons, field: "/reason")
        try notice.validate()
    }
}

/// `platform.preferences.set.v1`: a person's choices for one app's messages, whole: per category
/// the channels they want (a category not listed keeps the app's defaults), and quiet hours.
package struct PreferencesSet: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "preferences", event: "set", major: 1)

    package var app: String
    package var personId: String
    package var categories: [String: [String]]
    package var quietHours: QuietHours?

    package init(app: String, personId: String, categories: [String: [String]], quietHours: QuietHours?) {
        self.app = app
        self.personId = personId
        self.categories = categories
        self.quietHours = quietHours
    }

    package var aggregateID: String { personId }

    package func validate() throws {
        try Validate.name(app, field: "/app")
        try Validate.uuid(personId, field: "/personId")
        guard categories.count <= 64 else { throw EventValidationError(field: "/categories", "must have at most 64 categories") }
        for (category, channels) in categories {
            try NotificationNames.validateCategory(category, field: "/categories")
            try Validate.count(channels, 0...3, field: "/categories/\(category)")
            for channel in channels {
                try Validate.oneOf(channel, Set(NotificationChannel.allCases.map(\.rawValue)), field: "/categories/\(category)")
            }
        }
        try quietHours?.validate()
    }
}

/// Keys as subjects: a key may hold any printable character; its subject is a hash of it.
package enum NotificationKeys {
    package static func subject(_ key: String) -> String { HexIDs.derived("ntk_", from: key) }

    package static func decision(key: String, version: UInt64, channel: NotificationChannel) -> String {
        HexIDs.derived("ntf_", from: key, String(version), channel.rawValue)
    }
}

extension EventCatalog {
    /// Notifications: what was scheduled, decided and preferred.
    package static var notifications: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(NotificationScheduled.self)
        catalog.register(NotificationCancelled.self)
        catalog.register(NotificationSent.self)
        catalog.register(NotificationSuppressed.self)
        catalog.register(NotificationDeferred.self)
        catalog.register(PreferencesSet.self)
        return catalog
    }
}
