package import CryptoExtras
import Foundation
import HTTPTypes
package import Hummingbird
import MusterJSON
import NIOCore

/// A local server that answers like Google's token endpoint and FCM HTTP v1, for tests: the
/// service account's RS256 assertion is checked against its public key and exchanged for an access
/// token; `messages:send` needs that token, answers `{"name": …}`, and `404 UNREGISTERED` (with
/// FCM's error details) for tokens marked gone. Google's servers cannot exist here; the client
/// code that talks to this is the production path. Control routes (not Google's):
/// `GET /standin/deliveries`, `POST /standin/unregister/<token>`.
package enum FCMStandIn {
    package struct Delivery: Codable, Sendable, Equatable {
        package var token: String
        package var message: String
    }

    package actor Recorder {
        /// The last 100k deliveries, oldest first.
        package var deliveries: [Delivery] { kept.items }
        private var kept = RecentList<Delivery>(keep: 100_000)
        package private(set) var tokensIssued = 0
        var gone: Set<String> = []
        var issued: Set<String> = []
        var failures: [Int] = []

        package init() {}

        package func unregister(_ token: String) { gone.insert(token) }
        /// The next `count` sends answer `status` (503, 429, 401).
        package func failNext(_ count: Int, status: Int) { failures += Array(repeating: status, count: max(0, min(count, 1000))) }
        /// Forgets every access token issued (as if they expired).
        package func expireAccessTokens() { issued.removeAll() }

        func issue() -> String {
            tokensIssued += 1
            let token = "ya29.standin-\(UUID().uuidString)"
            issued.insert(token)
            return token
        }

        func answer(access: String?, token: String) -> Int? {
            if !failures.isEmpty { return failures.removeFirst() }
            guard let access, issued.contains(access) else { return 401 }
            return gone.contains(token) ? 404 : nil
        }

        func record(_ delivery: Delivery) { kept.append(delivery) }
    }

    /// What FCM checks of a send: a token; `data` values are strings only; an Android priority of
    /// `NORMAL` or `HIGH`. A message without `notification` is data only (silent): the app handles it.
    struct SendBody: Decodable {
        struct Android: Decodable { var priority: String? }
        struct Message: Decodable {
            var token: String
            var data: [String: String]?
            var android: Android?
        }
        var message: Message
    }

    package static func router(recorder: Recorder, publicKey: _RSA.Signing.PublicKey?) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/token") { request, _ in
            let form = String(buffer: try await request.body.collect(upTo: 16 * 1024))
            let fields = Dictionary(form.split(separator: "&").compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { a, _ in a })
            guard fields["grant_type"] == "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer", let assertion = fields["assertion"],
                  valid(assertion, publicKey: publicKey) else {
                return json(400, #"{"error":"invalid_grant"}"#)
            }
            return json(200, #"{"access_token":"\#(await recorder.issue())","expires_in":3599,"token_type":"Bearer"}"#)
        }
        router.post("/v1/projects/{project}/messages:send") { request, context in
            let body = try await request.body.collect(upTo: 64 * 1024)
            guard let send = try? JSONBytesDecoder().decode(SendBody.self, from: Array(buffer: body)),
                  ["NORMAL", "HIGH", nil].contains(send.message.android?.priority) else {
                return error(400, "INVALID_ARGUMENT", status: "INVALID_ARGUMENT")
            }
            let access = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            switch await recorder.answer(access: access, token: send.message.token) {
            case 401?: return error(401, nil, status: "UNAUTHENTICATED")
            case 404?: return error(404, "UNREGISTERED", status: "NOT_FOUND")
            case 429?: return error(429, "QUOTA_EXCEEDED", status: "RESOURCE_EXHAUSTED")
            case let other?: return error(other, "UNAVAILABLE", status: "UNAVAILABLE")
            case nil: break
            }
            await recorder.record(Delivery(token: send.message.token, message: String(buffer: body)))
            let project = try context.parameters.require("project")
            return json(200, #"{"name":"projects/\#(project)/messages/\#(UUID().uuidString)"}"#)
        }
        // For people trying it by hand: what it received, and a token to answer UNREGISTERED for.
        router.get("/standin/deliveries") { _, _ in
            let deliveries = await recorder.deliveries
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: try JSONBytesEncoder().encode(deliveries))))
        }
        router.post("/standin/unregister/{token}") { _, context in
            await recorder.unregister(try context.parameters.require("token"))
            return Response(status: .noContent)
        }
        return router
    }

    static func valid(_ assertion: String, publicKey: _RSA.Signing.PublicKey?) -> Bool {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return false }
        guard let publicKey else { return true }
        guard let signature = Base64URL.decode(parts[2]) else { return false }
        return publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: Data((parts[0] + "." + parts[1]).utf8),
                                          padding: .insecurePKCS1v1_5)
    }

    static func json(_ status: Int, _ text: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func error(_ code: Int, _ errorCode: String?, status: String) -> Response {
        let details = errorCode.map { #","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#($0)"}]"# } ?? ""
        return json(code, #"{"error":{"code":\#(code),"message":"stand-in","status":"\#(status)"\#(details)}}"#)
    }
}
