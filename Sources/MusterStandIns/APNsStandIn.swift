package import Crypto
package import Foundation
import HTTPTypes
package import Hummingbird
import HummingbirdHTTP2
import MusterJSON
import NIOCore
import NIOSSL

/// A local server that answers like APNs, for tests, `make run APNS=standin` and the bench: HTTP/2
/// over TLS, `POST /3/device/<token>` with Apple's headers, provider-token checks (signature
/// against the team's public key, `ExpiredProviderToken` after an hour), Apple's status codes and
/// reasons, `410 Unregistered` with a timestamp for tokens marked gone. Apple's push servers cannot
/// exist here; the client code that talks to this is the production path.
///
/// Control routes (not Apple's): `GET /standin/deliveries`, `GET /standin/count`, `POST /standin/unregister/<token>`,
/// `POST /standin/fail?status=503&reason=ServiceUnavailable&count=3` (the next answers).
package enum APNsStandIn {
    package struct Delivery: Codable, Sendable, Equatable {
        package var token: String
        package var topic: String
        package var pushType: String
        package var priority: String
        package var apnsId: String
        package var collapseId: String?
        package var expiration: String?
        /// The payload as sent (JSON text).
        package var payload: String
        /// When the stand-in took it (milliseconds since 1970): how long a push took to get here.
        package var receivedAt: Int64? = nil
    }

    /// What the stand-in has seen, and what it has been told to do.
    package actor Recorder {
        /// The last `keep` deliveries, oldest first.
        package var deliveries: [Delivery] { kept.items }
        private var kept: RecentList<Delivery>
        /// Requests of any outcome (deliveries and refusals).
        package private(set) var requests = 0
        /// Every delivery taken since the start (the list keeps only the last `keep`).
        package private(set) var delivered = 0
        var gone: [String: Int64] = [:]
        var failures: [(status: Int, reason: String)] = []
        /// Keeps the last `keep` deliveries (a bench sends hundreds of thousands).
        package init(keep: Int = 100_000) { kept = RecentList(keep: keep) }

        package func unregister(_ token: String, at millis: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) {
            gone[token.lowercased()] = millis
        }

        package func failNext(_ count: Int, status: Int, reason: String) {
            failures += Array(repeating: (status, reason), count: max(0, min(count, 10_000)))
        }

        func answer(for token: String) -> (status: Int, reason: String, timestamp: Int64?)? {
            requests += 1
            if !failures.isEmpty { let next = failures.removeFirst(); return (next.status, next.reason, nil) }
            if let since = gone[token] { return (410, "Unregistered", since) }
            return nil
        }

        func record(_ delivery: Delivery) {
            kept.append(delivery)
            delivered += 1
        }
    }

    /// The router; `publicKey` verifies provider tokens (nil accepts any well-formed one).
    package static func router(recorder: Recorder, publicKey: P256.Signing.PublicKey?) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/3/device/{token}") { request, context in
            let token = try context.parameters.require("token").lowercased()
            let body = try await request.body.collect(upTo: 64 * 1024)
            if let refusal = check(request, token: token, body: body, publicKey: publicKey) {
                _ = await recorder.answer(for: token)
                return refusal
            }
            if let answer = await recorder.answer(for: token) {
                return error(answer.status, answer.reason, timestamp: answer.timestamp)
            }
            let apnsID = request.headers[.apnsID] ?? UUID().uuidString
            await recorder.record(Delivery(token: token, topic: request.headers[.apnsTopic] ?? "",
                                           pushType: request.headers[.apnsPushType] ?? "alert",
                                           priority: request.headers[.apnsPriority] ?? "10", apnsId: apnsID,
                                           collapseId: request.headers[.apnsCollapseID],
                                           expiration: request.headers[.apnsExpiration],
                                           payload: String(buffer: body), receivedAt: Int64(Date().timeIntervalSince1970 * 1000)))
            return Response(status: .ok, headers: [.apnsID: apnsID])
        }
        router.get("/standin/deliveries") { _, _ in
            let deliveries = await recorder.deliveries
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: try JSONBytesEncoder().encode(deliveries))))
        }
        // How many so far, without the list: what a bench polls while it waits.
        router.get("/standin/count") { _, _ in
            let (delivered, requests) = (await recorder.delivered, await recorder.requests)
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: "{\"delivered\":\(delivered),\"requests\":\(requests)}")))
        }
        router.post("/standin/unregister/{token}") { _, context in
            await recorder.unregister(try context.parameters.require("token"))
            return Response(status: .noContent)
        }
        router.post("/standin/fail") { request, _ in
            let query = request.uri.queryParameters
            let status = query["status"].flatMap { Int(String($0)) } ?? 503
            guard (400...599).contains(status) else { return error(400, "BadStatus") }
            await recorder.failNext(query["count"].flatMap { Int(String($0)) } ?? 1, status: status,
                                    reason: query["reason"].map(String.init) ?? "ServiceUnavailable")
            return Response(status: .noContent)
        }
        return router
    }

    /// Apple's checks, in Apple's order of importance; nil when the request may be delivered.
    static func check(_ request: Request, token: String, body: ByteBuffer, publicKey: P256.Signing.PublicKey?) -> Response? {
        guard (64...200).contains(token.utf8.count), token.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
            return error(400, "BadDeviceToken")
        }
        guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else {
            return error(403, "MissingProviderToken")
        }
        switch ProviderToken.verify(String(authorization.dropFirst(7)), publicKey: publicKey) {
        case .invalid: return error(403, "InvalidProviderToken")
        case .expired: return error(403, "ExpiredProviderToken")
        case .valid: break
        }
        guard let topic = request.headers[.apnsTopic], !topic.isEmpty else { return error(400, "MissingTopic") }
        if let type = request.headers[.apnsPushType],
           !["alert", "background", "voip", "complication", "fileprovider", "mdm", "liveactivity"].contains(type) {
            return error(400, "InvalidPushType")
        }
        if let priority = request.headers[.apnsPriority], !["1", "5", "10"].contains(priority) {
            return error(400, "BadPriority")
        }
        // A background notification is delivered at priority 5 only (Apple: "you must set 5"; 10 is an error).
        if request.headers[.apnsPushType] == "background", request.headers[.apnsPriority] != "5" { return error(400, "BadPriority") }
        if let collapse = request.headers[.apnsCollapseID], collapse.utf8.count > 64 { return error(400, "BadCollapseId") }
        if body.readableBytes == 0 { return error(400, "PayloadEmpty") }
        if body.readableBytes > 4096 { return error(413, "PayloadTooLarge") }
        return nil
    }

    static func error(_ status: Int, _ reason: String, timestamp: Int64? = nil) -> Response {
        let text = timestamp.map { #"{"reason":"\#(reason)","timestamp":\#($0)}"# } ?? #"{"reason":"\#(reason)"}"#
        return Response(status: .init(code: status), headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The server: HTTP/2 over TLS with the given certificate and key (PEM files).
    package static func application(host: String, port: Int, certificate: String, key: String, recorder: Recorder,
                                   publicKey: P256.Signing.PublicKey?) throws -> some ApplicationProtocol {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
        let tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        return Application(router: router(recorder: recorder, publicKey: publicKey), server: try .http2Upgrade(tlsConfiguration: tls),
                           configuration: .init(address: .hostname(host, port: port), serverName: "apns-standin"))
    }
}

/// Reads a provider token as APNs does: ES256 over `header.claims`, `iat` no older than an hour.
package enum ProviderToken {
    package enum Verdict { case valid, invalid, expired }

    struct Claims: Decodable {
        var iss: String
        var iat: Int64
    }

    package static func verify(_ token: String, publicKey: P256.Signing.PublicKey?, now: Date = Date()) -> Verdict {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 4096, parts.count == 3, let claimBytes = Base64URL.decode(parts[1]),
              let claims = try? JSONBytesDecoder().decode(Claims.self, from: claimBytes) else { return .invalid }
        if let publicKey {
            guard let signatureBytes = Base64URL.decode(parts[2]),
                  let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
                  publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)) else { return .invalid }
        }
        return Int64(now.timeIntervalSince1970) - claims.iat > 3600 ? .expired : .valid
    }
}

extension HTTPField.Name {
    // Apple's header names. The unwraps cannot fail: each is a literal token (letters and -), a valid field name.
    static let apnsID = HTTPField.Name("apns-id")!
    static let apnsTopic = HTTPField.Name("apns-topic")!
    static let apnsPushType = HTTPField.Name("apns-push-type")!
    static let apnsPriority = HTTPField.Name("apns-priority")!
    static let apnsCollapseID = HTTPField.Name("apns-collapse-id")!
    static let apnsExpiration = HTTPField.Name("apns-expiration")!
}
