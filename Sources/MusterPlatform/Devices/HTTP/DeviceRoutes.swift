import HTTPTypes
package import Hummingbird
import MusterEvents
package import MusterRuntime

/// `/api/devices`: an installation registers its push token (and rotates it), changes its
/// settings, reads and removes its registration. Signed in with the app's key (scope
/// `devices:register`) or a person's access token, which links the device to the person.
/// Registering a new installation answers its `deviceSecret` once; the installation then proves
/// itself with `X-Device-Id` and `X-Device-Secret` (reading, changing, removing, rotating its
/// token). A device linked to a person is that person's alone. Anyone else's device is 404.
package enum DeviceRoutes {
    package static let registerScope = "devices:register"
    static let maxBody = 16 * 1024

    /// A person of any app, or any app's key with `devices:register`: each registers its own app's installations.
    static let access = AccessRule.keyOrPerson(nil, scope: registerScope)

    package static func add(to routes: Routes<Router<MusterRequestContext>>, devices: Devices) {
        routes.post("/api/devices", access: access) { request, context in
            let caller = try caller(context)
            let body = try await RequestJSON.decode(DeviceRequest.self, from: request, maxBody: maxBody)
            let registered = try await devices.register(body.registration, by: caller, idempotencyKey: request.headers[.idempotencyKey])
            return try JSONResponse.make(registered.changed ? .created : .ok, DeviceAnswer(registered))
        }
        routes.get("/api/devices/{deviceId}", access: access) { _, context in
            let caller = try caller(context, deviceId: try deviceID(context))
            return try JSONResponse.make(.ok, DeviceAnswer(try await devices.device(try deviceID(context), for: caller)))
        }
        routes.patch("/api/devices/{deviceId}", access: access) { request, context in
            let caller = try caller(context, deviceId: try deviceID(context))
            let body = try await RequestJSON.decode(DeviceUpdateRequest.self, from: request, maxBody: maxBody)
            let device = try await devices.update(try deviceID(context), for: caller) { body.apply(to: &$0) }
            return try JSONResponse.make(.ok, DeviceAnswer(device))
        }
        routes.delete("/api/devices/{deviceId}", access: access) { _, context in
            let caller = try caller(context, deviceId: try deviceID(context))
            try await devices.unregister(try deviceID(context), for: caller)
            return Response(status: .noContent)
        }
    }

    /// Who calls a route that a person or the app itself may call (its rule `key-or-person`): the
    /// person the rule admitted, else the app's key. The installation the caller says it is (its
    /// `X-Device-Id`, or `deviceId`, the path's, and `X-Device-Secret`) comes along, for `Devices`
    /// to prove against the device.
    package static func caller(_ context: MusterRequestContext, deviceId: String? = nil) throws -> DeviceCaller {
        let installation = context.caller.installation
        let claimed = deviceId ?? installation?.deviceId, secret = installation?.secret
        if case .person = context.principal {
            let person = try context.person()
            return DeviceCaller(app: person.app, personId: person.personId, actor: "person:\(person.personId)", org: person.org,
                                role: person.role, deviceId: claimed, secret: secret)
        }
        let client = try context.key()
        return DeviceCaller(app: client.app, personId: nil, actor: client.id, deviceId: claimed, secret: secret)
    }

    static func deviceID(_ context: MusterRequestContext) throws -> String {
        try context.parameters.require("deviceId")
    }
}

extension Devices {
    /// The process's device registry over its devices fold.
    package static func shared(in environment: MusterEnvironment) -> Devices {
        environment.shared {
            Devices(log: environment.log, runner: environment.projections.runner(DevicesProjection.self),
                    people: People.shared(in: environment))
        }
    }
}

extension DeviceRoutes {
    /// Device registration as an app built on tRPC calls it (`TRPC`: ShieldAI's
    /// `notification.registerDevice`), over the same registry and rules as `POST /api/devices`.
    package static func addTRPC(_ procedure: String, to routes: Routes<Router<MusterRequestContext>>, devices: Devices) {
        TRPC.mutation(procedure, on: routes, access: access, maxBody: maxBody,
                      authorize: { try caller($0) }) { (body: DeviceRequest, caller, request) in
            DeviceAnswer(try await devices.register(body.registration, by: caller, idempotencyKey: request.headers[.idempotencyKey]))
        }
    }
}

extension HTTPField.Name {
    // The unwraps cannot fail: literal tokens (letters, digits, -) are valid field names.
    /// The installation's device id, beside its secret.
    package static let deviceID = HTTPField.Name("X-Device-Id")!
    /// The installation's secret, given once at registration.
    package static let deviceSecret = HTTPField.Name("X-Device-Secret")!
}
