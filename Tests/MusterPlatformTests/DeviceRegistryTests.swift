import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
@testable import MusterEvents
import MusterLog
import MusterPlatform
import MusterRuntime
import MusterTesting
import NIOFoundationEssentialsCompat
import Testing

@Suite("Device registry over HTTP: REST and ShieldAI's tRPC shape")
struct DeviceRegistryTests {
    static let token = String(repeating: "ab", count: 32)
    static let otherToken = String(repeating: "cd", count: 32)

    static func registration(token: String = token, extra: String = "") -> String {
        #"{"token": "\#(token)", "platform": "ios", "bundleId": "com.kordant.shieldai", "environment": "sandbox", "locale": "en-US", "timeZone": "America/Chicago", "topics": ["alerts"]\#(extra)}"#
    }

    static func deviceEvents(_ app: TestApp) async throws -> [RecordedEvent] {
        try await app.log.read(filter: "events.platform.device.>")
    }

    @Test func registerReadUpdateRotateAndUnregister() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
            let created = try await app.request("/api/devices", method: .post, key: key, headers: [.idempotencyKey: "install-1"],
                                                json: Self.registration(extra: #", "installationId": "inst-1""#))
            #expect(created.status == .created, "\(created.text)")
            let device = try #require(RegisteredDevice(created), "a new installation gets its secret: \(created.text)")
            let id = device.id
            #expect(id.hasPrefix("dev_") && id.count == 36)
            #expect(device.secret.hasPrefix("dsk_") && device.secret.count == 68)
            #expect(created.json["status"] as? String == "active")
            #expect(created.json["signedIn"] as? Bool == false)
            #expect(!created.text.contains(Self.token), "the token is not repeated back")
            let stored = try await Self.deviceEvents(app)
            #expect((stored.first?.payload as? DeviceRegistered)?.secretHash == DeviceSecret.hash(device.secret), "only the secret's hash is kept")

            // A retry with the same Idempotency-Key answers the same device and secret and appends nothing.
            let retried = try await app.request("/api/devices", method: .post, key: key, headers: [.idempotencyKey: "install-1"],
                                                json: Self.registration(extra: #", "installationId": "inst-1""#))
            #expect(RegisteredDevice(retried)?.id == id && RegisteredDevice(retried)?.secret == device.secret, "\(retried.text)")
            // The same registration again, by the installation itself, changes nothing and appends nothing.
            let again = try await app.request("/api/devices", method: .post, key: key, headers: device.headers,
                                              json: Self.registration(token: Self.token.uppercased(), extra: #", "installationId": "inst-1""#))
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.json["deviceSecret"] == nil, "a secret is shown once")
            #expect(try await Self.deviceEvents(app).count == 1)

            let patched = try await app.request("/api/devices/\(id)", method: .patch, key: key, headers: device.headers,
                                                json: #"{"topics": ["alerts", "darkwatch"], "timeZone": "Europe/Paris"}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(patched.json["topics"] as? [String] == ["alerts", "darkwatch"])
            #expect(patched.json["locale"] as? String == "en-US", "what is left out stays")

            // A rotated token keeps the installation's device, with its secret.
            let rotated = try await app.request("/api/devices", method: .post, key: key, headers: device.headers,
                                                json: Self.registration(token: Self.otherToken, extra: #", "previousToken": "\#(Self.token)""#))
            #expect(rotated.status == .created, "\(rotated.text)")
            #expect(rotated.json["deviceId"] as? String == id)
            let state = await DevicesProjection.runner(app).read { $0 }
            #expect(state.devices[id]?.token == Self.otherToken)
            #expect(state.byToken[Self.token] == nil)

            // The key alone, the id alone, a wrong secret, another app's key: all 404.
            let oplKey = try await app.key(app: "opl", [DeviceRoutes.registerScope])
            #expect(try await app.request("/api/devices/\(id)", key: oplKey, headers: device.headers).status == .notFound)
            #expect(try await app.request("/api/devices/\(id)", key: key).status == .notFound)
            var wrong = device.headers
            wrong[HTTPField.Name("X-Device-Secret")!] = "dsk_" + String(repeating: "0", count: 64)
            #expect(try await app.request("/api/devices/\(id)", key: key, headers: wrong).status == .notFound)
            #expect(try await app.request("/api/devices/\(id)", key: key, headers: device.headers).status == .ok)

            #expect(try await app.request("/api/devices/\(id)", method: .delete, key: key, headers: device.headers).status == .noContent)
            #expect(try await app.request("/api/devices/\(id)", key: key, headers: device.headers).status == .notFound)
            let types = try await Self.deviceEvents(app).map(\.storedType.event)
            #expect(types == ["registered", "updated", "registered", "unregistered"])
        }
    }

    /// Hole 2 of the authorization review: registering another installation's push token with
    /// the app's key answered with that installation's device id, and `previousToken` handed the
    /// victim's device over. A push token is an address, never a credential.
    @Test func aPushTokenOpensNobodysDevice() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
            let victim = try #require(RegisteredDevice(try await app.request("/api/devices", method: .post, key: key,
                                                                                json: Self.registration(extra: #", "installationId": "victim""#))))
            // The attacker registers the victim's token (and installation id): a device of its own.
            let taken = try await app.request("/api/devices", method: .post, key: key,
                                              json: Self.registration(extra: #", "installationId": "victim""#))
            let attacker = try #require(RegisteredDevice(taken), "\(taken.text)")
            #expect(attacker.id != victim.id && attacker.secret != victim.secret)
            // previousToken without the device's secret rotates nothing.
            let rotation = try await app.request("/api/devices", method: .post, key: key,
                                                 json: Self.registration(token: Self.otherToken, extra: #", "previousToken": "\#(Self.token)""#))
            #expect(rotation.status == .notFound, "\(rotation.text)")
            // The attacker's secret opens only the attacker's device.
            var forged = attacker.headers
            forged[HTTPField.Name("X-Device-Id")!] = victim.id
            #expect(try await app.request("/api/devices/\(victim.id)", key: key, headers: forged).status == .notFound)
            #expect(try await app.request("/api/devices", method: .post, key: key, headers: forged, json: Self.registration()).status == .notFound)
            // The victim keeps its device (the token now routes to the newer registration) and takes the token back.
            let back = try await app.request("/api/devices", method: .post, key: key, headers: victim.headers, json: Self.registration())
            #expect(back.status == .created && back.json["deviceId"] as? String == victim.id && back.json["status"] as? String == "active", "\(back.text)")
        }
    }

    /// Hole 3: an app key read a person's device, re-registering its token with the key unlinked the
    /// person, and another customer could then change it. A person's device is that person's alone.
    @Test func aPersonsDeviceIsTheirsAlone() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "shield", app: "shieldai", name: "ShieldAI")
            let policy = People.TokenPolicy(app: "shieldai", signUpRole: "customer")
            let sam = try await people.register(People.Registration(orgSlug: "shield", email: "sam@example.com", firstName: "Sam", lastName: "Safe",
                                                                    phone: nil, password: "Shielded2026"), policy: policy)
            let kim = try await people.register(People.Registration(orgSlug: "shield", email: "kim@example.com", firstName: "Kim", lastName: "Safe",
                                                                    phone: nil, password: "Shielded2026"), policy: policy)
            let key = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
            let registered = try await app.request("/api/devices", method: .post, headers: [.authorization: "Bearer \(sam.accessToken)"],
                                                   json: Self.registration())
            let device = try #require(RegisteredDevice(registered), "\(registered.text)")
            // Not the app's key, not even with the installation's own secret once a person holds it; not another person.
            #expect(try await app.request("/api/devices/\(device.id)", key: key).status == .notFound)
            #expect(try await app.request("/api/devices/\(device.id)", key: key, headers: device.headers).status == .notFound)
            #expect(try await app.request("/api/devices", method: .post, key: key, headers: device.headers, json: Self.registration()).status == .notFound)
            #expect(try await app.request("/api/devices/\(device.id)", method: .patch, headers: [.authorization: "Bearer \(kim.accessToken)"],
                                          json: #"{"topics": ["taken"]}"#).status == .notFound)
            #expect(try await app.request("/api/devices/\(device.id)", method: .patch, headers: [.authorization: "Bearer \(sam.accessToken)"],
                                          json: #"{"topics": ["mine"]}"#).status == .ok)
            #expect(await DevicesProjection.runner(app).read { $0.devices[device.id]?.personId } == sam.account.personId)
        }
    }

    @Test func aPersonsTokenLinksTheDeviceAndForgettingRemovesIt() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "shield", app: "shieldai", name: "ShieldAI")
            func signUp(_ email: String) async throws -> People.SignedIn {
                try await people.register(People.Registration(orgSlug: "shield", email: email, firstName: "Sam", lastName: "Safe",
                                                               phone: nil, password: "Shielded2026"),
                                          policy: People.TokenPolicy(app: "shieldai", signUpRole: "customer"))
            }
            let sam = try await signUp("sam@example.com")
            let kim = try await signUp("kim@example.com")
            let registered = try await app.request("/api/devices", method: .post,
                                                   headers: [.authorization: "Bearer \(sam.accessToken)"], json: Self.registration())
            #expect(registered.status == .created, "\(registered.text)")
            #expect(registered.json["signedIn"] as? Bool == true)
            let id = try #require(registered.json["deviceId"] as? String, "\(registered.status): \(registered.text)")
            #expect(try await app.request("/api/devices/\(id)", headers: [.authorization: "Bearer \(kim.accessToken)"]).status == .notFound)
            #expect(try await app.request("/api/devices/\(id)", headers: [.authorization: "Bearer \(sam.accessToken)"]).status == .ok)
            #expect(try await app.request("/api/devices", method: .post, headers: [.authorization: "Bearer not-a-token"],
                                          json: Self.registration()).status == .unauthorized)

            try await people.forget(sam.account.personId, requestedBy: "test")
            try await eventually("the forgotten person's device is gone") {
                await DevicesProjection.runner(app).read { $0.devices[id] } == nil
            }
        }
    }

    @Test func hostileRegistrationsAreClearErrorsAndStoreNothing() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
            let readOnly = try await app.key(app: "shieldai", ["read:mobile"])
            let cases: [(String?, String, HTTPResponse.Status, String)] = [
                (nil, Self.registration(), .unauthorized, "missing API key"),
                (readOnly, Self.registration(), .forbidden, "lacks scope devices:register"),
                (key, Self.registration(token: "xyz"), .unprocessableContent, "token"),
                (key, Self.registration(token: String(repeating: "a", count: 63)), .unprocessableContent, "token"),
                (key, #"{"token": "\#(Self.token)", "platform": "windows", "bundleId": "x"}"#, .unprocessableContent, "platform"),
                (key, #"{"token": "fcm:abc-DEF_123", "platform": "android", "bundleId": "x", "environment": "sandbox"}"#, .unprocessableContent, "environment"),
                (key, Self.registration(extra: #", "cells": ["9q8yya"]"#), .unprocessableContent, "cells"),
                (key, Self.registration(extra: #", "cells": ["aaaaa"]"#), .unprocessableContent, "cells"),
                (key, Self.registration().replacingOccurrences(of: "America/Chicago", with: "Mars/Olympus"), .unprocessableContent, "timeZone"),
                (key, Self.registration().replacingOccurrences(of: #"["alerts"]"#, with: #"["Bill Alerts"]"#), .unprocessableContent, "topics"),
                (key, Self.registration(extra: #", "topics": ["again"]"#), .badRequest, "topics"),
                (key, #"{"token": null, "platform": "ios", "bundleId": "x"}"#, .badRequest, "token"),
                (key, "[1, 2", .badRequest, "JSON"),
                (key, #"{"token": "\#(String(repeating: "a", count: 20_000))", "platform": "ios", "bundleId": "x"}"#, .contentTooLarge, "Large"),
            ]
            for (key, body, status, message) in cases {
                let response = try await app.request("/api/devices", method: .post, key: key, json: body)
                #expect(response.status == status, "\(body.prefix(120)) → \(response.text)")
                #expect(response.errorMessage.contains(message), "\(body.prefix(120)) → \(response.text)")
            }
            #expect(try await app.request("/api/devices/dev_nothing", key: key).status == .notFound)
            #expect(try await app.request("/api/devices", method: .post, key: key, headers: [HTTPField.Name("X-Device-Id")!: "dev_x", HTTPField.Name("X-Device-Secret")!: "nope"],
                                          json: Self.registration()).status == .notFound)
            #expect(try await app.request("/api/devices/\(String(repeating: "x", count: 5000))", method: .delete, key: key).status == .notFound)
            #expect(try await Self.deviceEvents(app).isEmpty)
        }
    }

    @Test func trpcRegisterDeviceSpeaksTRPCsEnvelopes() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key(app: "shieldai", [DeviceRoutes.registerScope])
            let plain = try await app.request("/trpc/notification.registerDevice", method: .post, key: key, json: Self.registration())
            #expect(plain.status == .ok, "\(plain.text)")
            let data = try #require((plain.json["result"] as? [String: Any])?["data"] as? [String: Any])
            #expect((data["deviceId"] as? String)?.hasPrefix("dev_") == true)

            let superjson = try await app.request("/trpc/notification.registerDevice", method: .post, key: key,
                                                  json: #"{"json": \#(Self.registration(token: Self.otherToken))}"#)
            #expect(superjson.status == .ok, "\(superjson.text)")
            let wrapped = (superjson.json["result"] as? [String: Any])?["data"] as? [String: Any]
            #expect((wrapped?["json"] as? [String: Any])?["deviceId"] is String, "\(superjson.text)")

            let refused = try await app.request("/trpc/notification.registerDevice", method: .post, key: key,
                                                json: Self.registration(token: "nope"))
            #expect(refused.status == .unprocessableContent)
            let error = try #require(refused.json["error"] as? [String: Any], "\(refused.text)")
            #expect((error["message"] as? String)?.contains("token") == true)
            #expect(error["code"] as? Int == -32022)
            let details = try #require(error["data"] as? [String: Any])
            #expect(details["code"] as? String == "UNPROCESSABLE_CONTENT")
            #expect(details["httpStatus"] as? Int == 422)
            #expect(details["path"] as? String == "notification.registerDevice")

            let anonymous = try await app.request("/trpc/notification.registerDevice", method: .post, json: Self.registration())
            #expect(anonymous.status == .unauthorized)
            #expect(((anonymous.json["error"] as? [String: Any])?["data"] as? [String: Any])?["code"] as? String == "UNAUTHORIZED")
            #expect(try await Self.deviceEvents(app).count == 2)
        }
    }

    @Test func anInvalidatedTokenIsRevivedOnlyByALaterRegistration() throws {
        let id = "dev_" + String(repeating: "0a", count: 16)
        let registered = DeviceRegistered(deviceId: id, app: "shieldai", platform: "ios", token: Self.token, bundleId: "com.x",
                                          environment: "production", settings: DeviceSettings(), personId: nil)
        func invalidated(at time: String?) -> DeviceInvalidated {
            DeviceInvalidated(deviceId: id, token: Self.token, provider: "apns", reason: "Unregistered", invalidAt: time)
        }
        var state = DevicesProjection.initialState
        try fold([registered], at: "2026-11-24T10:00:00Z", into: &state)
        // APNs says the token went bad before this registration: the registration stands.
        try fold([invalidated(at: "2026-11-24T09:00:00Z")], at: "2026-11-24T10:05:00Z", into: &state)
        #expect(state.devices[id]?.isActive == true)
        try fold([invalidated(at: "2026-11-24T10:30:00.500Z")], at: "2026-11-24T10:31:00Z", into: &state)
        #expect(state.devices[id]?.invalidated?.reason == "Unregistered")
        try fold([registered], at: "2026-11-24T11:00:00Z", into: &state)
        #expect(state.devices[id]?.isActive == true)
    }

    func fold(_ events: [any EventPayload], at time: String, into state: inout DevicesProjection.State) throws {
        for payload in events {
            try DevicesProjection.apply(RecordedEvent(sequence: 1, subject: payload.eventType.subject(aggregateID: payload.aggregateID),
                                                      id: UUID().uuidString, source: "test", time: time, actor: nil, traceparent: nil,
                                                      storedType: payload.eventType, aggregateID: payload.aggregateID, payload: payload),
                                        to: &state)
        }
    }
}

extension DevicesProjection {
    static func runner(_ app: TestApp) -> ProjectionRunner<DevicesProjection> {
        app.env.environment.projections.runner(DevicesProjection.self)
    }
}
