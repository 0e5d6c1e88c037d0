import MusterEvents

/// `POST /api/devices` and tRPC `notification.registerDevice`: the installation and its settings.
struct DeviceRequest: Decodable, Sendable {
    var token: String
    var platform: String
    var bundleId: String
    var environment: String?
    var installationId: String?
    var previousToken: String?
    var locale: String?
    var timeZone: String?
    var topics: [String]?
    var cells: [String]?

    var registration: DeviceRegistration {
        DeviceRegistration(token: token, platform: platform, bundleId: bundleId, environment: environment,
                           installationId: installationId, previousToken: previousToken,
                           settings: DeviceSettings(locale: locale, timeZone: timeZone, topics: topics ?? [], cells: cells ?? []))
    }
}

/// `PATCH /api/devices/{deviceId}`: what is sent is replaced, what is left out stays.
struct DeviceUpdateRequest: Decodable, Sendable {
    var locale: String?
    var timeZone: String?
    var topics: [String]?
    var cells: [String]?

    func apply(to settings: inout DeviceSettings) {
        if let locale { settings.locale = locale }
        if let timeZone { settings.timeZone = timeZone }
        if let topics { settings.topics = topics }
        if let cells { settings.cells = cells }
    }
}

/// A device as its installation sees it (the token is not repeated back).
struct DeviceAnswer: Encodable, Sendable {
    var deviceId: String
    var app: String
    var platform: String
    var bundleId: String
    var environment: String?
    var locale: String?
    var timeZone: String?
    var topics: [String]
    var cells: [String]
    var signedIn: Bool
    /// `active`, or `invalidated` once the push provider refused the token (register again).
    var status: String
    var invalidReason: String?
    var registeredAt: String
    /// A new installation's secret, in the answer that made it only: keep it (the Keychain) and
    /// send it as `X-Device-Secret` with `X-Device-Id`.
    var deviceSecret: String?

    init(_ registered: Devices.Registered) {
        self.init(registered.device)
        deviceSecret = registered.secret
    }

    init(_ device: DevicesProjection.Device) {
        deviceId = device.deviceId
        app = device.app
        platform = device.platform
        bundleId = device.bundleId
        environment = device.environment
        locale = device.settings.locale
        timeZone = device.settings.timeZone
        topics = device.settings.topics
        cells = device.settings.cells
        signedIn = device.personId != nil
        status = device.isActive ? "active" : "invalidated"
        invalidReason = device.invalidated?.reason
        registeredAt = device.registeredAt
    }
}
