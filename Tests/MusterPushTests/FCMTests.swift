import CryptoExtras
import Foundation
import Hummingbird
import HummingbirdTesting
import MusterStandIns
import MusterAppTesting
import MusterPlatform
@testable import MusterPush
import MusterRuntime
import MusterTesting
import Testing

@Suite("FCM HTTP v1 for Android: service-account token, per-token outcomes, UNREGISTERED invalidates")
struct FCMTests {
    @Test func fcmsAnswersMeanWhatTheirErrorCodeSays() {
        func outcome(_ status: Int, _ body: String) -> APNsOutcome { FCMResponse.outcome(status: status, body: Array(body.utf8)) }
        #expect(outcome(200, #"{"name":"projects/p/messages/1"}"#) == .delivered(apnsID: "projects/p/messages/1"))
        let unregistered = #"{"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"x","errorCode":"UNREGISTERED"}]}}"#
        #expect(outcome(404, unregistered) == .refused(reason: "UNREGISTERED", status: 404, invalidatesToken: true, since: nil))
        #expect(outcome(400, #"{"error":{"status":"INVALID_ARGUMENT"}}"#) == .refused(reason: "INVALID_ARGUMENT", status: 400, invalidatesToken: false, since: nil))
        #expect(outcome(403, #"{"error":{"details":[{"errorCode":"SENDER_ID_MISMATCH"}]}}"#)
            == .refused(reason: "SENDER_ID_MISMATCH", status: 403, invalidatesToken: false, since: nil))
        #expect(outcome(401, "") == .renewToken)
        #expect(outcome(429, #"{"error":{"details":[{"errorCode":"QUOTA_EXCEEDED"}]}}"#) == .retry(reason: "QUOTA_EXCEEDED", status: 429))
        #expect(outcome(503, "<html>") == .retry(reason: "HTTP503", status: 503))
    }

    @Test func anAndroidDeviceGetsItsPushAndUnregisteredInvalidatesIt() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let recorder = FCMStandIn.Recorder()
        try await Application(router: FCMStandIn.router(recorder: recorder, publicKey: key.publicKey)).test(.live) { standIn in
            let port = try #require(standIn.port)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("fcm-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            let account: [String: String] = ["type": "service_account", "project_id": "opl-test", "client_email": "push@opl-test.iam.gserviceaccount.com",
                                             "private_key": key.pemRepresentation, "token_uri": "http://127.0.0.1:\(port)/token"]
            try JSONSerialization.data(withJSONObject: account).write(to: file)
            try await apps.withTestApp(["ingest", "notifier", "query"], configure: {
                $0[FCMSettings.self].serviceAccountFile = file.path
                $0[FCMSettings.self].url = "http://127.0.0.1:\(port)"
            }) { app in
                let appKey = try await app.key(app: "opl", [DeviceRoutes.registerScope, PushRoutes.scope])
                let token = "fcm-token:APA91b" + String(repeating: "x", count: 40)
                let registered = try await app.request("/api/devices", method: .post, key: appKey, json: """
                {"token": "\(token)", "platform": "android", "bundleId": "org.onlinepicketline.app"}
                """)
                let installation = try #require(RegisteredDevice(registered), "\(registered.text)")
                let device = installation.id
                func push() async throws -> [String: Any] {
                    let sent = try await app.request("/api/push", method: .post, key: appKey, json: """
                    {"audience": {"deviceIds": ["\(device)"]}, "title": "Strike near you", "body": "Acme", "screen": "action", "id": "act_1"}
                    """)
                    return try await PushFlowTests.completed(app, key: appKey, try #require(sent.json["pushId"] as? String, "\(sent.status): \(sent.text)"))
                }
                #expect(try await push()["delivered"] as? Int == 1)
                let message = try #require(await recorder.deliveries.first?.message)
                #expect(message.contains(#""screen":"action""#) && message.contains(#""priority":"HIGH""#))

                // An expired access token is renewed once; FCM's 503 is retried.
                await recorder.expireAccessTokens()
                await recorder.failNext(1, status: 503)
                #expect(try await push()["delivered"] as? Int == 1)
                #expect(await recorder.tokensIssued == 2)

                await recorder.unregister(token)
                let gone = try await push()
                #expect((gone["reasons"] as? [String: Int])?["UNREGISTERED"] == 1, "\(gone)")
                try await eventually("invalidated") {
                    try await app.request("/api/devices/\(device)", key: appKey, headers: installation.headers).json["status"] as? String == "invalidated"
                }
            }
        }
    }
}
