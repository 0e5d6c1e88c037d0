import AsyncHTTPClient
import Foundation
import MusterOPL
import MusterTesting
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// The compose gateway as it ships (`deploy/gateway/nginx.conf`), run by a real nginx in front of a
/// live Muster: HTTPS with the pair `make certs` makes, plain HTTP only redirecting. Only the
/// addresses change: the upstreams point at the test server, the ports are free ones, and the
/// certificate comes from a temporary folder.
@Suite("The gateway's TLS", .serialized)
struct GatewayTLSTests {
    struct Gateway {
        let http: Int
        let https: Int
        let certificate: String
    }

    static func nginxBinary() throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") + ["/usr/sbin"] {
            let candidate = "\(dir)/nginx"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestServerError("nginx not found: `make deps` installs it")
    }

    /// The shipped configuration with the test's addresses, ports and folders.
    static func configuration(upstream port: Int, gateway: Gateway, folder: URL) throws -> String {
        var text = try String(contentsOfFile: Repository.path("deploy/gateway/nginx.conf"), encoding: .utf8)
        text = text.replacingOccurrences(of: #"server [a-z]+:8080;"#, with: "server 127.0.0.1:\(port);", options: .regularExpression)
        let replacements = [
            ("listen 8080;", "listen 127.0.0.1:\(gateway.http);"),
            ("listen 8443 ssl;", "listen 127.0.0.1:\(gateway.https) ssl;"),
            ("/etc/muster/tls/", folder.path + "/tls/"),
            ("worker_processes auto;", "worker_processes 1;"),
            ("http {", "http {\n  access_log off;\n" + ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
                .map { "  \($0)_temp_path \(folder.path)/\($0);" }.joined(separator: "\n")),
        ]
        for (shipped, test) in replacements {
            guard text.contains(shipped) else { throw TestServerError("nginx.conf no longer has `\(shipped)`") }
            text = text.replacingOccurrences(of: shipped, with: test)
        }
        return text
    }

    /// Runs nginx with the shipped configuration in front of `port` for `body`.
    static func withGateway(upstream port: Int, _ body: (Gateway) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("muster-gateway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certs = Process()
        certs.executableURL = URL(fileURLWithPath: Repository.path("scripts/make-certs.sh"))
        certs.arguments = [folder.appendingPathComponent("tls").path]
        certs.standardOutput = FileHandle.nullDevice
        try certs.run()
        certs.waitUntilExit()
        guard certs.terminationStatus == 0 else { throw TestServerError("make-certs.sh failed") }

        let gateway = Gateway(http: try freePort(), https: try freePort(), certificate: folder.appendingPathComponent("tls/cert.pem").path)
        let config = folder.appendingPathComponent("nginx.conf")
        try configuration(upstream: port, gateway: gateway, folder: folder).write(to: config, atomically: true, encoding: .utf8)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: try nginxBinary())
        nginx.arguments = ["-p", folder.path, "-c", config.path, "-e", folder.appendingPathComponent("error.log").path,
                           "-g", "daemon off; pid \(folder.path)/nginx.pid;"]
        nginx.standardOutput = FileHandle.nullDevice
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        defer {
            nginx.terminate()
            nginx.waitUntilExit()
        }
        try await eventually("nginx listens") {
            guard nginx.isRunning else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                throw TestServerError("nginx exited: \(log.suffix(1500))")
            }
            return (try? await Self.status(plain, "http://127.0.0.1:\(gateway.http)/health")) != nil
        }
        try await body(gateway)
    }

    /// Runs `body` with a client that trusts only `certificate` (or only the system's roots) and
    /// never follows a redirect.
    static func withClient(trusting certificate: String?, _ body: (HTTPClient) async throws -> Void) async throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let certificate {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow))
        do {
            try await body(client)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    static let plain = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    static func status(_ client: HTTPClient, _ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [],
                       body: String? = nil, timeout: TimeAmount = .seconds(10)) async throws -> (status: Int, location: String?, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), response.headers.first(name: "Location"), String(buffer: bytes))
    }

    @Test func httpsReachesEveryServiceAndPlainHTTPRedirects() async throws {
        try await withLiveServer { env, port in
            let key = try await env.key([OPLScopes.submitStrike, OPLScopes.readMobile])
            try await Self.withGateway(upstream: port) { gateway in
                let base = "https://localhost:\(gateway.https)"
                try await Self.withClient(trusting: gateway.certificate) { https in
                    #expect(try await Self.status(https, "\(base)/health").status == 200)
                    let submitted = try await Self.status(https, "\(base)/api/mobile/submit-strike", method: .POST,
                                                          headers: [("X-API-Key", key), ("Content-Type", "application/json")],
                                                          body: OutageTests.submission)
                    #expect(submitted.status == 201, "\(submitted.body)")
                    let data = try await Self.status(https, "\(base)/api/mobile/data?lat=44.08&lng=-103.23", headers: [("X-API-Key", key)])
                    #expect(data.status == 200, "\(data.body)")
                    #expect(try await Self.status(https, "\(base)/metrics").status == 404, "metrics are scraped per service, not through the gateway")
                }
                // A client that does not trust the certificate gets no answer at all.
                try await Self.withClient(trusting: nil) { untrusting in
                    // (The client retries a failed handshake until the deadline; the error is the handshake's.)
                    let refused = await #expect(throws: (any Error).self) {
                        _ = try await Self.status(untrusting, "\(base)/health", timeout: .seconds(1))
                    }
                    #expect(refused is NIOSSLError, "the certificate is refused, not the connection: \(String(describing: refused))")
                }

                // Plain HTTP only redirects, to the same path and query; a POST keeps its method (308).
                for (method, path) in [(HTTPMethod.GET, "/api/mobile/data?lat=44.08&lng=-103.23"), (.POST, "/api/mobile/submit-strike")] {
                    let answer = try await Self.status(Self.plain, "http://localhost:\(gateway.http)\(path)", method: method,
                                                       headers: [("X-API-Key", key)], body: method == .POST ? OutageTests.submission : nil)
                    #expect(answer.status == 308)
                    #expect(answer.location == "https://localhost\(path)")
                }
            }
            let submissions = try await env.log.read(filter: "events.opl.action.*.submitted.v1")
            #expect(submissions.count == 1, "the redirected POST stored nothing")
        }
    }
}
