import AsyncHTTPClient
import Foundation
import MusterAppTesting
import MusterOPL
import MusterTesting
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// The compose gateway as it ships, run by a real nginx in front of a live Muster: HTTPS with the
/// pair `make certs` makes, plain HTTP only redirecting.
@Suite("The gateway's TLS", .serialized)
struct GatewayTLSTests {
    @Test func httpsReachesEveryServiceAndPlainHTTPRedirects() async throws {
        try await apps.withLiveServer { env, port in
            let key = try await env.key([OPLScopes.submitStrike, OPLScopes.readMobile])
            try await NginxGateway.withGateway(upstreams: { _ in port }) { gateway in
                let base = "https://localhost:\(gateway.https)"
                try await NginxGateway.withClient(trusting: gateway.certificate) { https in
                    #expect(try await NginxGateway.status(https, "\(base)/health").status == 200)
                    let submitted = try await NginxGateway.status(https, "\(base)/api/mobile/submit-strike", method: .POST,
                                                          headers: [("X-API-Key", key), ("Content-Type", "application/json")],
                                                          body: OutageTests.submission)
                    #expect(submitted.status == 201, "\(submitted.body)")
                    let data = try await NginxGateway.status(https, "\(base)/api/mobile/data?lat=44.08&lng=-103.23", headers: [("X-API-Key", key)])
                    #expect(data.status == 200, "\(data.body)")
                    #expect(try await NginxGateway.status(https, "\(base)/metrics").status == 404, "metrics are scraped per service, not through the gateway")
                }
                // A client that does not trust the certificate gets no answer at all.
                try await NginxGateway.withClient(trusting: nil) { untrusting in
                    // (The client retries a failed handshake until the deadline; the error is the handshake's.)
                    let refused = await #expect(throws: (any Error).self) {
                        _ = try await NginxGateway.status(untrusting, "\(base)/health", timeout: .seconds(1))
                    }
                    #expect(refused is NIOSSLError, "the certificate is refused, not the connection: \(String(describing: refused))")
                }

                // Plain HTTP only redirects, to the same path and query; a POST keeps its method (308).
                for (method, path) in [(HTTPMethod.GET, "/api/mobile/data?lat=44.08&lng=-103.23"), (.POST, "/api/mobile/submit-strike")] {
                    let answer = try await NginxGateway.status(NginxGateway.plain, "http://localhost:\(gateway.http)\(path)", method: method,
                                                       headers: [("X-API-Key", key)], body: method == .POST ? OutageTests.submission : nil)
                    #expect(answer.status == 308)
                    #expect(answer.location == "https://localhost\(path)")
                }
            }
            let submissions = try await env.log.read(filter: "events.opl.action.*.submitted.v1")
            #expect(submissions.count == 1, "the redirected POST stored nothing")
        }
    }

    /// A service with no container answering (all restarting, or one closing as it stops for an
    /// upgrade): the client is told to retry, as it is for a log that did not answer, not given
    /// nginx's 502 page.
    @Test func noServiceAnsweringIsA503WithRetryAfter() async throws {
        let nobody = try freePort()
        try await NginxGateway.withGateway(upstreams: { _ in nobody }) { gateway in
            try await NginxGateway.withClient(trusting: gateway.certificate) { https in
                for (method, path) in [(HTTPMethod.POST, "/api/mobile/submit-strike"), (.GET, "/api/mobile/active-strikes")] {
                    let answer = try await NginxGateway.status(https, "https://localhost:\(gateway.https)\(path)", method: method,
                                                               headers: [("Content-Type", "application/json")],
                                                               body: method == .POST ? OutageTests.submission : nil)
                    #expect(answer.status == 503, "\(path): \(answer.body)")
                    #expect(answer.headers.first(name: "Retry-After") == "2")
                    #expect(answer.headers.first(name: "Content-Type") == "application/json")
                    let body = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: String]
                    #expect(body?["error"]?.contains("Idempotency-Key") == true, "\(answer.body)")
                }
            }
        }
    }
}
