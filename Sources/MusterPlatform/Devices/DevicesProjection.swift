package import MusterEvents
import MusterLog
package import MusterRuntime

/// Every app's push registrations: who gets a push sent to a token, a person, a topic, a cell or
/// a whole app. In memory (one entry per installation).
package enum DevicesProjection: Projection {
    package struct Device: Codable, Sendable, Equatable {
        package var deviceId: String
        package var app: String
        package var platform: String
        package var token: String
        package var bundleId: String
        package var environment: String?
        package var settings: DeviceSettings
        package var personId: String?
        package var registeredAt: String
        /// Set when the provider refused the token for good; a later registration clears it.
        package var invalidated: Invalidation?
        /// SHA-256 of the installation's secret (`DeviceSecret`); nil for devices from before.
        package var secretHash: String?

        package var isActive: Bool { invalidated == nil }
        /// Who owns it (`Access`): its person once linked, else the installation itself.
        package var owner: ResourceOwner { ResourceOwner(app: app, personId: personId, deviceId: deviceId) }
    }

    package struct Invalidation: Codable, Sendable, Equatable {
        package var reason: String
        package var at: String
    }

    package struct State: Codable, Sendable, Equatable {
        package var devices: [String: Device] = [:]
        /// token → deviceId, for rotation and for outcomes that name a token.
        package var byToken: [String: String] = [:]
        /// personId → their deviceIds: a push to a person finds their devices without reading every device.
        package var byPerson: [String: Set<String>] = [:]

        /// The person's devices, every app's, active or not.
        package func devices(of personId: String) -> [Device] {
            (byPerson[personId] ?? []).compactMap { devices[$0] }
        }
    }

    package static let name = "devices"
    /// 2: a token that moves to another device leaves the old one replaced, not removed (the
    /// installation keeps its id and secret, and can take the token back).
    /// 3: devices indexed by person.
    package static let version = 3
    package static let filterSubjects = ["events.platform.device.>", "events.platform.person.>"]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let registered as DeviceRegistered:
            register(registered, at: event.time, in: &state)
        case let updated as DeviceUpdated:
            guard state.devices[updated.deviceId] != nil else { throw ProjectionRejection("unknown device \(updated.deviceId)") }
            state.devices[updated.deviceId]?.settings = updated.settings
        case let unregistered as DeviceUnregistered:
            remove(unregistered.deviceId, from: &state)
        case let invalidated as DeviceInvalidated:
            guard var device = state.devices[invalidated.deviceId], device.token == invalidated.token else { return }
            let since = invalidated.invalidAt ?? event.time
            // APNs: a token registered after the moment it was found invalid is good again.
            guard (Timestamp.millis(since) ?? 0) >= (Timestamp.millis(device.registeredAt) ?? 0) else { return }
            device.invalidated = Invalidation(reason: invalidated.reason, at: since)
            state.devices[invalidated.deviceId] = device
        case let forgotten as PersonForgotten:
            for id in state.byPerson[forgotten.personId] ?? [] {
                remove(id, from: &state)
            }
        default:
            return
        }
    }

    static func register(_ registered: DeviceRegistered, at time: String, in state: inout State) {
        if let previous = state.devices[registered.deviceId] {
            if previous.token != registered.token { state.byToken[previous.token] = nil }
            if let person = previous.personId, person != registered.personId { unindex(registered.deviceId, of: person, in: &state) }
        }
        // A token routes to one installation: the newest registration of it. An older device
        // that held it gives it up (nothing is sent to it) but stays, with its owner's data.
        if let holder = state.byToken[registered.token], holder != registered.deviceId {
            state.devices[holder]?.invalidated = Invalidation(reason: "replaced", at: time)
        }
        state.devices[registered.deviceId] = Device(
            deviceId: registered.deviceId, app: registered.app, platform: registered.platform, token: registered.token,
            bundleId: registered.bundleId, environment: registered.environment, settings: registered.settings,
            personId: registered.personId, registeredAt: time, invalidated: nil, secretHash: registered.secretHash)
        state.byToken[registered.token] = registered.deviceId
        if let person = registered.personId { state.byPerson[person, default: []].insert(registered.deviceId) }
    }

    static func unindex(_ deviceId: String, of personId: String, in state: inout State) {
        state.byPerson[personId]?.remove(deviceId)
        if state.byPerson[personId]?.isEmpty == true { state.byPerson[personId] = nil }
    }

    static func remove(_ deviceId: String, from state: inout State) {
        guard let device = state.devices.removeValue(forKey: deviceId) else { return }
        if state.byToken[device.token] == deviceId { state.byToken[device.token] = nil }
        if let person = device.personId { unindex(deviceId, of: person, in: &state) }
    }
}
