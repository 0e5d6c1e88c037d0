import HTTPTypes
public import Hummingbird
import MusterEvents
public import MusterRuntime

/// `/api/devices`: an installation registers its push token (and rotates it), changes its
/// settings, reads and removes its registration. Signed in with the app's key (scope
/// `devices:register`) or a person's access token, which links the device to the person.
public enum DeviceRoutes {
    public static let registerScope = "devices:register"
    static let maxBody = 16 * 1024

    public static func add(to routes: Routes<Router<MusterRequestContext>>, devices: Devices, keys: APIKeyDirectory, people: People) {
        routes.post("/api/devices") { request, _ in
            let caller = try await caller(request, keys: keys, people: people)
            let body = try await RequestJSON.decode(DeviceRequest.self, from: request, maxBody: maxBody)
            let (device, changed) = try await devices.register(body.registration, by: caller,
                                                               idempotencyKey: request.headers[.idempotencyKey])
            return try JSONResponse.make(changed ? .created : .ok, DeviceAnswer(device))
        }
        routes.get("/api/devices/{deviceId}") { request, context in
            let caller = try await caller(request, keys: keys, people: people)
            return try JSONResponse.make(.ok, DeviceAnswer(try await devices.device(try deviceID(context), for: caller)))
        }
        routes.patch("/api/devices/{deviceId}") { request, context in
            let caller = try await caller(request, keys: keys, people: people)
            let body = try await RequestJSON.decode(DeviceUpdateRequest.self, from: request, maxBody: maxBody)
            let device = try await devices.update(try deviceID(context), for: caller) { body.apply(to: &$0) }
            return try JSONResponse.make(.ok, DeviceAnswer(device))
        }
        routes.delete("/api/devices/{deviceId}") { request, context in
            let caller = try await caller(request, keys: keys, people: people)
            try await devices.unregister(try deviceID(context), for: caller)
            return Response(status: .noContent)
        }
    }

    /// Who calls a route that a person or the app itself may call: the person of an access token
    /// when one is sent, else the app's key, which must have `scope`.
    public static func caller(_ request: Request, keys: APIKeyDirectory, people: People,
                              scope: String = registerScope) async throws -> DeviceCaller {
        if request.headers[.authorization] != nil {
            let claims = try await people.validate(request)
            return DeviceCaller(app: claims.app, personId: claims.personId, actor: "person:\(claims.personId)")
        }
        let client = try await keys.authenticate(request.headers[.apiKey])
        guard client.scopes.contains(scope) else { throw KeyError(.lacksScope, "API key lacks scope \(scope)") }
        return DeviceCaller(app: client.app, personId: nil, actor: client.id)
    }

    static func deviceID(_ context: MusterRequestContext) throws -> String {
        try context.parameters.require("deviceId")
    }
}

extension Devices {
    /// The process's device registry over its devices fold.
    public static func shared(in environment: MusterEnvironment) -> Devices {
        environment.shared {
            Devices(log: environment.log, runner: environment.projections.runner(DevicesProjection.self),
                    people: People.shared(in: environment))
        }
    }
}

extension DeviceRoutes {
    /// ShieldAI's `api.notification.registerDevice`, in tRPC's shape (`TRPC`), over the same registry.
    public static func addTRPC(to routes: Routes<Router<MusterRequestContext>>, devices: Devices, keys: APIKeyDirectory, people: People) {
        TRPC.mutation("notification.registerDevice", on: routes, maxBody: maxBody) { (body: DeviceRequest, request, _) in
            let caller = try await caller(request, keys: keys, people: people)
            let (device, _) = try await devices.register(body.registration, by: caller, idempotencyKey: request.headers[.idempotencyKey])
            return DeviceAnswer(device)
        }
    }
}
