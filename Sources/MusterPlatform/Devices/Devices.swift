import Foundation
package import MusterEvents
package import MusterLog
package import MusterRuntime

/// Why a device operation was refused, in domain terms; `DeviceErrorCode+HTTP` gives the answers.
package typealias DeviceError = DomainError<DeviceErrorCode>

package enum DeviceErrorCode: Sendable, Hashable {
    /// A field breaks its rule; the field as the request names it.
    case invalidField(String)
    /// No such device for this caller (or it was unregistered).
    case unknownDevice
}

/// Who is registering or changing a device: an app (its key or a person's token of it), the
/// person when signed in, and the installation's own proof when it sends one: the device id
/// (`X-Device-Id`, or the path's) with the secret it was given at registration (`X-Device-Secret`).
/// A push token is an address, never a credential; the device id alone opens nothing.
package struct DeviceCaller: Sendable, Equatable {
    package var app: String
    package var personId: String?
    package var org: String?
    package var role: String?
    /// The device the installation says it is, and its secret.
    package var deviceId: String?
    package var secret: String?
    /// For the log's `actor`: the key id or `person:<id>`.
    package var actor: String

    package init(app: String, personId: String?, actor: String, org: String? = nil, role: String? = nil,
                deviceId: String? = nil, secret: String? = nil) {
        self.app = app
        self.personId = personId
        self.org = org
        self.role = role
        self.deviceId = deviceId
        self.secret = secret
        self.actor = actor
    }

    /// What this caller proved about `device`: the person of its token, and the device itself
    /// when the secret it sent is that device's.
    func principals(for device: DevicesProjection.Device) -> [Principal] {
        var proved: [Principal] = []
        if let personId { proved.append(.person(app: app, org: org ?? "", personId: personId, role: role ?? "")) }
        if let secret, deviceId.map({ $0 == device.deviceId }) ?? true, let stored = device.secretHash,
           DeviceSecret.matches(secret, stored) {
            proved.append(.device(app: app, deviceId: device.deviceId))
        }
        return proved
    }
}

/// What an installation sends to register.
package struct DeviceRegistration: Sendable, Equatable {
    package var token: String
    package var platform: String
    package var bundleId: String
    /// `sandbox` or `production` (iOS); production when not said.
    package var environment: String?
    /// A stable id the app keeps for its installation: with it a rotated token keeps the device.
    package var installationId: String?
    /// The token this one replaces, when the app knows it (the other way to keep the device).
    package var previousToken: String?
    package var settings: DeviceSettings

    package init(token: String, platform: String, bundleId: String, environment: String? = nil, installationId: String? = nil,
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
package struct Devices: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<DevicesProjection>
    let people: People
    static let settle: Duration = .seconds(3)

    package init(log: EventLog, runner: ProjectionRunner<DevicesProjection>, people: People) {
        self.log = log
        self.runner = runner
        self.people = people
    }

    /// What a registration answers: the device, whether anything changed, and for a new
    /// installation its secret (shown once; only its hash is kept).
    package struct Registered: Sendable {
        package var device: DevicesProjection.Device
        package var changed: Bool
        package var secret: String?
    }

    /// Registers an installation, or re-registers one the caller owns (a new token, new settings,
    /// a sign-in): with `caller.deviceId` the caller must prove the device is theirs (its secret,
    /// or the token of the person it is linked to), else it is unknown (404). Without it, a new
    /// device with a secret of its own; its push token moves to it from any device that held it.
    /// An identical re-registration appends nothing.
    package func register(_ registration: DeviceRegistration, by caller: DeviceCaller,
                         idempotencyKey: String? = nil) async throws -> Registered {
        var registration = registration
        try Self.normalise(&registration)
        if let claimed = caller.deviceId {
            let current = try await device(claimed, for: caller)
            let event = DeviceRegistered(deviceId: claimed, app: caller.app, platform: registration.platform, token: registration.token,
                                         bundleId: registration.bundleId, environment: registration.environment,
                                         settings: registration.settings, personId: caller.personId ?? current.personId,
                                         secretHash: current.secretHash)
            if current.isActive, Self.same(current, event) { return Registered(device: current, changed: false) }
            try await append(event, caller: caller, idempotencyKey: idempotencyKey)
            return Registered(device: try await device(claimed, for: caller), changed: true)
        }
        guard registration.previousToken == nil else {
            throw DeviceError(.unknownDevice, "previousToken rotates a device only with its X-Device-Id and X-Device-Secret")
        }
        // A retry with the same Idempotency-Key (and token) names the same device and secret, so
        // it appends nothing new and answers what the first answer said; without one, fresh ones.
        let (deviceId, secret) = try await newIdentity(app: caller.app, token: registration.token, idempotencyKey: idempotencyKey)
        var caller = caller
        (caller.deviceId, caller.secret) = (deviceId, secret)
        if let current = await runner.read({ $0.devices[deviceId] }) {
            return Registered(device: try await device(current.deviceId, for: caller), changed: false, secret: secret)
        }
        let event = DeviceRegistered(deviceId: deviceId, app: caller.app, platform: registration.platform, token: registration.token,
                                     bundleId: registration.bundleId, environment: registration.environment,
                                     settings: registration.settings, personId: caller.personId, secretHash: DeviceSecret.hash(secret))
        try await append(event, caller: caller, idempotencyKey: idempotencyKey)
        return Registered(device: try await device(deviceId, for: caller), changed: true, secret: secret)
    }

    /// The device, if this caller owns it (`Access`): a device linked to a person is that
    /// person's alone; one that is not is the installation's, proven by its secret. Anything
    /// else, another app's included, is unknown (404).
    package func device(_ deviceId: String, for caller: DeviceCaller) async throws -> DevicesProjection.Device {
        guard (try? DeviceRules.validateID(deviceId)) != nil, let device = await runner.read({ $0.devices[deviceId] }),
              Access.permits(caller.principals(for: device), device.owner) else {
            throw DeviceError(.unknownDevice, "no device \(deviceId.prefix(40)) of yours")
        }
        return device
    }

    /// The installation `claim` names, when its secret is right and it is an active device of
    /// `app`: what a session's refresh token may be bound to.
    package func provenInstallation(_ claim: InstallationClaim?, app: String) async -> String? {
        guard let claim, let deviceId = claim.deviceId, let secret = claim.secret, (try? DeviceRules.validateID(deviceId)) != nil,
              let device = await runner.read({ $0.devices[deviceId] }), device.app == app, device.isActive,
              let stored = device.secretHash, DeviceSecret.matches(secret, stored) else { return nil }
        return deviceId
    }

    /// Every active device of `app` linked to `personId` (a person's export).
    package func devices(of personId: String, app: String) async -> [DevicesProjection.Device] {
        await runner.read { state in
            state.devices(of: personId).filter { $0.app == app && $0.isActive }.sorted { $0.registeredAt < $1.registeredAt }
        }
    }

    /// Replaces what `change` names of the device's settings.
    package func update(_ deviceId: String, for caller: DeviceCaller,
                       _ change: (inout DeviceSettings) -> Void) async throws -> DevicesProjection.Device {
        let current = try await device(deviceId, for: caller)
        var settings = current.settings
        change(&settings)
        try Self.check(settings)
        guard settings != current.settings else { return current }
        try await append(DeviceUpdated(deviceId: deviceId, settings: settings), caller: caller, idempotencyKey: nil)
        return try await device(deviceId, for: caller)
    }

    package func unregister(_ deviceId: String, for caller: DeviceCaller, reason: String = "app") async throws {
        _ = try await device(deviceId, for: caller)
        try await append(DeviceUnregistered(deviceId: deviceId, reason: reason), caller: caller, idempotencyKey: nil)
    }

    // MARK: Plumbing

    /// A new device's id and secret: random, or with an idempotency key derived from it and the
    /// token under the server's lookup secret (only a caller that knows both gets them again).
    func newIdentity(app: String, token: String, idempotencyKey: String?) async throws -> (id: String, secret: String) {
        guard let idempotencyKey else { return ("dev_" + DeviceSecret.randomHex(16), DeviceSecret.generate()) }
        let seed = "device\n\(app)\n\(token)\n\(idempotencyKey)"
        let id = "dev_" + (try await people.keyedHash("id\n" + seed)).prefix(32)
        return (id, DeviceSecret.prefix + (try await people.keyedHash("secret\n" + seed)))
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
            && device.secretHash == event.secretHash
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
