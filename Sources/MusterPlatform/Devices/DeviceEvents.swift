package import MusterEvents

/// `platform.device.registered.v1`: an app installation gave us its push token, or a new one
/// (rotation keeps the device id). Carries the whole registration, so the last one is the device.
package struct DeviceRegistered: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "device", event: "registered", major: 1)

    package var deviceId: String
    package var app: String
    package var platform: String
    package var token: String
    /// The APNs topic (the app's bundle id); Android's package name.
    package var bundleId: String
    /// `sandbox` or `production` for iOS; absent for Android.
    package var environment: String?
    package var settings: DeviceSettings
    /// The signed-in person, when the registration came with their token.
    package var personId: String?
    /// SHA-256 (lowercase hex) of the installation's secret (`DeviceSecret`); absent on devices
    /// registered before installations had secrets (only their person can reach those).
    package var secretHash: String?

    package init(deviceId: String, app: String, platform: String, token: String, bundleId: String, environment: String?,
                settings: DeviceSettings, personId: String?, secretHash: String? = nil) {
        self.deviceId = deviceId
        self.app = app
        self.platform = platform
        self.token = token
        self.bundleId = bundleId
        self.environment = environment
        self.settings = settings
        self.personId = personId
        self.secretHash = secretHash
    }

    package var aggregateID: String { deviceId }

    package func validate() throws {
        try DeviceRules.validateID(deviceId)
        if let secretHash { try Validate.prefixed(secretHash, "", .lowerHex, count: 64, field: "/secretHash", "64 lowercase hex digits") }
        try Validate.name(app, field: "/app")
        try Validate.oneOf(platform, DeviceRules.platforms, field: "/platform")
        try DeviceRules.validateToken(token, platform: platform)
        try DeviceRules.validateBundleID(bundleId)
        if let environment { try Validate.oneOf(environment, DeviceRules.environments, field: "/environment") }
        if platform == "ios", environment == nil { throw EventValidationError(field: "/environment", "is required for ios") }
        try settings.validate()
        if let personId { try Validate.uuid(personId, field: "/personId") }
    }
}

/// `platform.device.updated.v1`: the installation's settings changed (locale, time zone, topics,
/// proximity cells). The settings are replaced whole.
package struct DeviceUpdated: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "device", event: "updated", major: 1)

    package var deviceId: String
    package var settings: DeviceSettings

    package init(deviceId: String, settings: DeviceSettings) {
        self.deviceId = deviceId
        self.settings = settings
    }

    package var aggregateID: String { deviceId }

    package func validate() throws {
        try DeviceRules.validateID(deviceId)
        try settings.validate()
    }
}

/// `platform.device.unregistered.v1`: the app (signing out, turning pushes off) or an operator
/// removed the device. Nothing is sent to it again unless it registers anew.
package struct DeviceUnregistered: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "device", event: "unregistered", major: 1)
    package static let reasons: Set<String> = ["app", "operator"]

    package var deviceId: String
    package var reason: String

    package init(deviceId: String, reason: String) {
        self.deviceId = deviceId
        self.reason = reason
    }

    package var aggregateID: String { deviceId }

    package func validate() throws {
        try DeviceRules.validateID(deviceId)
        try Validate.oneOf(reason, Self.reasons, field: "/reason")
    }
}

/// `platform.device.invalidated.v1`: the push provider refused the token for good (APNs 410
/// `Unregistered` or 400 `BadDeviceToken`, FCM `UNREGISTERED`). A registration made after
/// `invalidAt` (APNs's timestamp of the 410) revives the device.
package struct DeviceInvalidated: EventPayload {
    package static let eventType = EventType(app: "platform", aggregate: "device", event: "invalidated", major: 1)
    package static let providers: Set<String> = ["apns", "fcm"]

    package var deviceId: String
    /// The token that was refused (a rotation may already have replaced it).
    package var token: String
    package var provider: String
    /// The provider's reason, as it wrote it.
    package var reason: String
    /// Since when the provider says the token is invalid (RFC 3339); absent when it did not say.
    package var invalidAt: String?

    package init(deviceId: String, token: String, provider: String, reason: String, invalidAt: String?) {
        self.deviceId = deviceId
        self.token = token
        self.provider = provider
        self.reason = reason
        self.invalidAt = invalidAt
    }

    package var aggregateID: String { deviceId }

    package func validate() throws {
        try DeviceRules.validateID(deviceId)
        try Validate.length(token, 8...4096, field: "/token")
        try Validate.oneOf(provider, Self.providers, field: "/provider")
        try Validate.length(reason, 1...100, field: "/reason")
        if let invalidAt { try Validate.timestamp(invalidAt, field: "/invalidAt") }
    }
}

extension EventCatalog {
    /// Devices: push registrations of every app.
    static func registerDevices(in catalog: inout EventCatalog) {
        catalog.register(DeviceRegistered.self)
        catalog.register(DeviceUpdated.self)
        catalog.register(DeviceUnregistered.self)
        catalog.register(DeviceInvalidated.self)
    }
}
