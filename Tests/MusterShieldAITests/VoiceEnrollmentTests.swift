import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterPush
import MusterRuntime
import MusterShieldAI
import MusterTesting
import NIOCore
import Testing

@Suite("ShieldAI voice enrollment over HTTP: REST and tRPC, stored in the object store, a push when ready")
struct VoiceEnrollmentTests {
    static func upload(_ app: TestApp, _ bytes: [UInt8], headers: HTTPFields, type: String = "audio/wav") async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = type
        return try await app.client.execute(uri: "/api/shieldai/voice-enrollments", method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    @Test func aSignedInPersonEnrollsAndGetsAPushThatOpensIt() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "shield", app: "shieldai", name: "ShieldAI")
            func signUp(_ email: String) async throws -> People.SignedIn {
                try await people.register(People.Registration(orgSlug: "shield", email: email, firstName: "Sam", lastName: "Safe", phone: nil,
                                                              password: "Shielded2026"), policy: People.TokenPolicy(app: "shieldai", signUpRole: "customer"))
            }
            let sam = try await signUp("sam@example.com"), kim = try await signUp("kim@example.com")
            let speech = try await Recordings.bytes("speech")
            let bearer: HTTPFields = [.authorization: "Bearer \(sam.accessToken)"]
            let created = try await Self.upload(app, speech, headers: bearer)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["enrollmentId"] as? String, "\(created.status): \(created.text)")
            #expect(created.json["status"] as? String == "ready")

            let status = try await app.request("/api/shieldai/voice-enrollments/\(id)", headers: bearer)
            #expect(status.status == .ok && status.json["enrollmentId"] as? String == id)
            #expect(try await app.request("/api/shieldai/voice-enrollments/\(id)", headers: [.authorization: "Bearer \(kim.accessToken)"]).status == .notFound)

            // The audio is in the object store, addressed by its SHA-256; the event carries only that.
            let enrolled = try #require(try await app.log.read(filter: "events.shieldai.voice.>").first?.payload as? VoiceEnrolled)
            #expect(enrolled.audio.digest == ObjectStore.digest(speech) && enrolled.audio.size == speech.count)
            let store = try await Blobs.shared(in: app.env.environment).bucket(Blobs.audio)
            #expect(try await store.get(enrolled.audio.digest) == speech)

            let push = try #require(try await app.log.read(filter: "events.push.send.*.requested.v1").first?.payload as? PushRequested)
            #expect(push.audience.personIds == [sam.account.personId])
            #expect(push.message.screen == "enrollment" && push.message.id == id)
        }
    }

    @Test func everyBrokenRuleIsA4xxNamingItAndNothingIsStored() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key(app: "shieldai", [VoiceRoutes.scope, DeviceRoutes.registerScope])
            let device = try #require(RegisteredDevice(try await app.request("/api/devices", method: .post, key: key, json: """
            {"token": "\(String(repeating: "ab", count: 32))", "platform": "ios", "bundleId": "com.kordant.shieldai"}
            """)))
            var headers = device.headers
            headers[.apiKey] = key
            let speech = try await Recordings.bytes("speech")
            var huge = speech
            let data = try #require((12..<huge.count - 4).first { String(decoding: huge[$0..<$0 + 4], as: UTF8.self) == "data" })
            huge.replaceSubrange(data + 4..<data + 8, with: [0xff, 0xff, 0xff, 0x7f])
            let cases: [([UInt8], String, HTTPResponse.Status, String)] = [
                (try await Recordings.bytes("8khz"), "audio/wav", .unprocessableContent, "16-khz"),
                (try await Recordings.bytes("stereo"), "audio/wav", .unprocessableContent, "mono"),
                (try await Recordings.bytes("short"), "audio/wav", .unprocessableContent, "at-least-5-seconds"),
                (try await Recordings.bytes("silence"), "audio/wav", .unprocessableContent, "not-silent"),
                (Array(speech.prefix(30)), "audio/wav", .unprocessableContent, ""),
                (huge, "audio/wav", .unprocessableContent, "complete"),
                (try await Recordings.bytes("long"), "audio/wav", .contentTooLarge, ""),
                (speech, "application/json", .unsupportedMediaType, ""),
            ]
            for (bytes, type, status, rule) in cases {
                let response = try await Self.upload(app, bytes, headers: headers, type: type)
                #expect(response.status == status, "\(rule) → \(response.text)")
                if !rule.isEmpty { #expect(response.headers[HTTPField.Name("X-Muster-Rule")!] == rule, "\(response.text)") }
                #expect(!response.errorMessage.isEmpty)
            }
            #expect(try await Self.upload(app, speech, headers: [.apiKey: key]).status == .badRequest, "an app key names its device")
            // The device id alone (hole 2 of the authorization review), or with another's secret, opens nothing.
            #expect(try await Self.upload(app, speech, headers: [.apiKey: key, HTTPField.Name("X-Device-Id")!: device.id]).status == .badRequest)
            #expect(try await Self.upload(app, speech, headers: [.apiKey: key, HTTPField.Name("X-Device-Id")!: "dev_" + String(repeating: "0", count: 32),
                                                                 HTTPField.Name("X-Device-Secret")!: device.secret]).status == .notFound)
            #expect(try await Self.upload(app, speech, headers: [:]).status == .unauthorized)
            #expect(try await app.log.read(filter: "events.shieldai.>").isEmpty)

            // The app's own tRPC call, base64, with a retry that is the same enrollment.
            let body = #"{"json": {"audio": "\#(Data(speech).base64EncodedString())"}}"#
            var trpcHeaders = headers
            trpcHeaders[.idempotencyKey] = "rec-1"
            for _ in 0..<2 {
                let response = try await app.request("/trpc/voiceprint.createEnrollment", method: .post, headers: trpcHeaders, json: body)
                #expect(response.status == .ok, "\(response.text)")
                let data = (response.json["result"] as? [String: Any])?["data"] as? [String: Any]
                #expect((data?["json"] as? [String: Any])?["status"] as? String == "ready", "\(response.text)")
            }
            #expect(try await app.log.read(filter: "events.shieldai.>").count == 1)
            let refused = try await app.request("/trpc/voiceprint.createEnrollment", method: .post, headers: headers,
                                                json: #"{"audio": "\#(Data(try await Recordings.bytes("8khz")).base64EncodedString())"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(((refused.json["error"] as? [String: Any])?["message"] as? String)?.contains("16 kHz") == true, "\(refused.text)")
        }
    }
}
