import Foundation
public import MusterEvents
public import MusterLog

/// Why a device operation was refused, in domain terms; `DeviceErrorCode+HTTP` gives the answers.
public typealias DeviceError = DomainError<DeviceErrorCode>

public enum DeviceErrorCode: Sendable, Hashable {
    /// A field breaks its rule; the field as the request names it.
    case invalidField(String)
    /// No such device for this caller (or it was unregistered).
    case unknownDevice
}

/// Who is registering or changing a device: an app (its key) and, when signed in, a person.
public struct DeviceCaller: Sendable, Equatable {
    public var app: String
    public var personId: String?
    /// For the log's `actor`: the key id or `person:<id>`.
    public var actor: String

    public init(app: String, personId: String?, actor: String) {
        self.app = app
        self.personId = personId
        self.actor = actor
    }
}

/// What an installation sends to register.
public struct DeviceRegistration: Sendable, Equatable {
    public var token: String
    public var platform: String
    public var bundleId: String
    /// `sandbox` or `production` (iOS); production when not said.
    public var environment: String?
    /// A stable id the app keeps for its installation: with it a rotated token keeps the device.
    public var installationId: String?
    /// The token this one replaces, when the app knows it (the other way to keep the device).
    public var previousToken: String?
    public var settings: DeviceSettings

    public init(token: String, platform: String, bundleId: String, environment: String? = nil, installationId: String? = nil,
                previousToken: String? = nil, settings: DeviceSettings = DeviceSettings()) {
        self.token = token
        self.platform = platform
        self.bundleId = bundleId
        self.environment = environment
        self.installationId = installationId
        self.previousToken = previousToken
        self.settings = settings
    }
}

/// Every app's push registrations: register (and rotate), change settings, unregister, read.
/// A device's id is a keyed hash of its installation (or first token), so only the installation
/// that registered learns it: the id is what lets it change or remove its registration later.
public struct Devices: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<DevicesProjection>
    let people: People
    static let settle: Duration = .seconds(3)

    public init(log: EventLog, runner: ProjectionRunner<DevicesProjection>, people: People) {
        self.log = log
        self.runner = runner
        self.people = people
    }

    /// Registers the installation, or re-registers it (a new token, new settings, a sign-in).
    /// Answers the device and whether anything changed; an identical registration appends nothing.
    public func register(_ registration: DeviceRegistration, by caller: DeviceCaller,
                         idempotencyKey: String? = nil) async throws -> (device: DevicesProjection.Device, changed: Bool) {
        var registration = registration
        try Self.normalise(&registration)
        let deviceId = try await id(for: registration, app: caller.app)
        let event = DeviceRegistered(deviceId: deviceId, app: caller.app, platform: registration.platform, token: registration.token,
                                     bundleId: registration.bundleId, environment: registration.environment,
                                     settings: registration.settings, personId: caller.personId)
        if let current = await runner.read({ $0.devices[deviceId] }), current.isActive, Self.same(current, event) {
            return (current, false)
        }
        try await append(event, caller: caller, idempotencyKey: idempotencyKey)
        return (try await device(deviceId, for: caller), true)
    }

    /// The device, if this caller may see it: the same app, and the same person when it has one.
    public func device(_ deviceId: String, for caller: DeviceCaller) async throws -> DevicesProjection.Device {
        guard (try? DeviceRules.validateID(deviceId)) != nil,
              let device = await runner.read({ $0.devices[deviceId] }), device.app == caller.app,
              device.personId == nil || caller.personId == nil || device.personId == caller.personId else {
            throw DeviceError(.unknownDevice, "no device \(deviceId.prefix(40)) for this app")
        }
        return device
    }

    /// Replaces what `change` names of the device's settings.
    public func update(_ deviceId: String, for caller: DeviceCaller,
                       _ change: (inout DeviceSettings) -> Void) async throws -> DevicesProjection.Device {
        let current = try await device(deviceId, for: caller)
        var settings = current.settings
        change(&settings)
        try Self.check(settings)
        guard settings != current.settings else { return current }
        try await append(DeviceUpdated(deviceId: deviceId, settings: settings), caller: caller, idempotencyKey: nil)
        return try await device(deviceId, for: caller)
    }

    public func unregister(_ deviceId: String, for caller: DeviceCaller, reason: String = "app") async throws {
        _ = try await device(deviceId, for: caller)
        try await append(DeviceUnregistered(deviceId: deviceId, reason: reason), caller: caller, idempotencyKey: nil)
    }

    // MARK: Plumbing

    func id(for registration: DeviceRegistration, app: String) async throws -> String {
        if let installation = registration.installationId {
            return try await derivedID(app: app, "installation", installation)
        }
        if let previous = registration.previousToken,
           let holder = await runner.read({ state in state.byToken[previous].flatMap { state.devices[$0] } }), holder.app == app {
            return holder.deviceId
        }
        if let holder = await runner.read({ state in state.byToken[registration.token].flatMap { state.devices[$0] } }), holder.app == app {
            return holder.deviceId
        }
        return try await derivedID(app: app, "token", registration.token)
    }

    func derivedID(app: String, _ kind: String, _ value: String) async throws -> String {
        "dev_" + (try await people.keyedHash("device\n\(app)\n\(kind)\n\(value)")).prefix(32)
    }

    func append(_ event: some EventPayload, caller: DeviceCaller, idempotencyKey: String?) async throws {
        let options = AppendOptions(idempotencyKey: idempotencyKey.map { "device:\(caller.actor):\($0)" }, actor: caller.actor)
        let result: AppendResult
        do {
            result = try await log.append(event, options: options)
        } catch let error as AppendError where error.code == .invalid {
            throw DeviceError(.invalidField(Self.fieldName(error.payloadError?.field)), error.payloadError?.reason ?? error.message)
        }
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
    }

    static func same(_ device: DevicesProjection.Device, _ event: DeviceRegistered) -> Bool {
        device.token == event.token && device.bundleId == event.bundleId && device.environment == event.environment
            && device.settings == event.settings && device.personId == event.personId && device.platform == event.platform
    }

    /// APNs tokens in lowercase (the same token in any case is one device); iOS defaults to production.
    static func normalise(_ registration: inout DeviceRegistration) throws {
        do {
            try Validate.oneOf(registration.platform, DeviceRules.platforms, field: "/platform")
            if registration.platform == "ios" {
                registration.token = registration.token.lowercased()
                registration.environment = registration.environment ?? "production"
            } else if registration.environment != nil {
                throw EventValidationError(field: "/environment", "is for iOS devices only")
            }
            try DeviceRules.validateToken(registration.token, platform: registration.platform)
            try DeviceRules.validateBundleID(registration.bundleId)
            if let environment = registration.environment { try Validate.oneOf(environment, DeviceRules.environments, field: "/environment") }
            if let installation = registration.installationId { try Validate.length(installation, 1...200, field: "/installationId") }
        } catch let error as EventValidationError {
            throw DeviceError(.invalidField(fieldName(error.field)), "\(fieldName(error.field)) \(error.reason)")
        }
        try check(registration.settings)
    }

    static func check(_ settings: DeviceSettings) throws {
        do {
            try settings.validate()
            if let zone = settings.timeZone, TimeZone(identifier: zone) == nil {
                throw EventValidationError(field: "/settings/timeZone", "must be an IANA time zone this server knows")
            }
        } catch let error as EventValidationError {
            throw DeviceError(.invalidField(fieldName(error.field)), "\(fieldName(error.field)) \(error.reason)")
        }
    }

    /// `/settings/timeZone` → `timeZone`: requests carry the settings at the top level.
    static func fieldName(_ pointer: String?) -> String {
        guard let pointer, let last = pointer.split(separator: "/").last else { return "body" }
        return String(last)
    }
}
