import AsyncHTTPClient
import Foundation
import MusterTesting
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// The compose gateway as it ships (`deploy/gateway/nginx.conf`), run by a real nginx from Debian.
/// Only the addresses change: each upstream points at a port the test chooses, the listening ports
/// are free ones, and the certificate is a fresh pair from `scripts/make-certs.sh`.
enum NginxGateway {
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
    static func configuration(upstreams: (String) -> Int, gateway: Gateway, folder: URL) throws -> String {
        var text = try String(contentsOfFile: Repository.path("deploy/gateway/nginx.conf"), encoding: .utf8)
        // `upstream ingest { server ingest:8080; … }`: each upstream's own port.
        for upstream in ["ingest", "geocode", "moderation", "collector", "query"] {
            let shipped = "server \(upstream):8080 "
            guard text.contains(shipped) else { throw TestServerError("nginx.conf no longer has `\(shipped)`") }
            text = text.replacingOccurrences(of: shipped, with: "server 127.0.0.1:\(upstreams(upstream)) ")
        }
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

    /// Runs nginx with the shipped configuration in front of `upstreams` (a port per upstream
    /// name) for `body`.
    static func withGateway(upstreams: (String) -> Int, _ body: (Gateway) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("muster-gateway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certs = try await runToEnd(Repository.path("scripts/make-certs.sh"), [folder.appendingPathComponent("tls").path], within: .seconds(60))
        guard certs.status == 0 else { throw TestServerError("make-certs.sh failed: \(certs.error.suffix(2000))") }

        let gateway = Gateway(http: try freePort(), https: try freePort(), certificate: folder.appendingPathComponent("tls/cert.pem").path)
        let config = folder.appendingPathComponent("nginx.conf")
        try configuration(upstreams: upstreams, gateway: gateway, folder: folder).write(to: config, atomically: true, encoding: .utf8)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: try nginxBinary())
        nginx.arguments = ["-p", folder.path, "-c", config.path, "-e", folder.appendingPathComponent("error.log").path,
                           "-g", "daemon off; pid \(folder.path)/nginx.pid;"]
        nginx.standardOutput = FileHandle.nullDevice
        nginx.standardError = FileHandle.nullDevice
        try nginx.runAlone()
        do {
            try await eventually("nginx listens") {
                guard nginx.ending == nil else {
                    let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                    throw TestServerError("nginx exited: \(log.suffix(1500))")
                }
                return (try? await Self.status(plain, "http://127.0.0.1:\(gateway.http)/health")) != nil
            }
            try await body(gateway)
        } catch {
            try? await nginx.stop(within: .seconds(20), "nginx")
            throw error
        }
        // Ended before its folder goes: nginx writes there until it exits.
        try await nginx.stop(within: .seconds(20), "nginx")
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

    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        var location: String? { headers.first(name: "Location") }
        /// Which stand-in upstream answered (`GatewayRoutesTests`).
        var standIn: String? { headers.first(name: "X-Stand-In") }
    }

    static let plain = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    static func status(_ client: HTTPClient, _ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [],
                       body: String? = nil, timeout: TimeAmount = .seconds(10)) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: timeout)
        } catch let error where Self.closedAsTaken(error) {
            // A kept-alive connection closed as the client took it from its pool, so the request
            // goes once more, on a new connection (seen once each way in a fresh clone's run on a
            // loaded machine: the channel already closed, or closed under the request). The tests
            // that call this check answers, not counts, so a request that went twice checks the same.
            response = try await client.execute(request, timeout: timeout)
        }
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
    }

    private static func closedAsTaken(_ error: any Error) -> Bool {
        if let error = error as? ChannelError, error == .ioOnClosedChannel { return true }
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed { return true }
        return false
    }

}
