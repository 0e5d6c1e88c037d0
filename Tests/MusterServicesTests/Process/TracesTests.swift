import Foundation
import FoundationNetworking
import Hummingbird
import MusterAppTesting
import MusterLog
import MusterTesting
import NIOCore
import NIOFoundationEssentialsCompat
import ServiceLifecycle
import Synchronization
import Testing

/// Three `muster serve` processes (ingest, geocode, query), each exporting spans over OTLP/HTTP to
/// a small receiver here, configured only by the standard `OTEL_*` variables. One submitted OPL
/// action, sent with a `traceparent`, must come back as one trace across the three: the request and
/// its append in ingest, the geocoding processor and its append in geocode, the folds in query.
/// Three more processes starting beside the whole suite slowed its first half-minute past other
/// tests' waits on two cores: scripts/test.sh runs this after it, with the connection tests.
@Suite("Traces across services", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["MUSTER_PROCESS_TESTS"] == "1", "scripts/test.sh runs these alone, afterwards"))
struct TracesTests {
    struct ReceivedSpan: Sendable { var service, traceID, name: String }

    /// An OTLP/HTTP+JSON trace receiver: keeps every span it is sent.
    final class Receiver: Sendable {
        let spans = Mutex<[ReceivedSpan]>([])

        func take(_ body: ByteBuffer) {
            guard let json = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else { return }
            var received: [ReceivedSpan] = []
            for resource in json["resourceSpans"] as? [[String: Any]] ?? [] {
                let attributes = (resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]] ?? []
                let service = attributes.first { $0["key"] as? String == "service.name" }
                    .flatMap { ($0["value"] as? [String: Any])?["stringValue"] as? String } ?? "?"
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        received.append(ReceivedSpan(service: service, traceID: Self.hex(span["traceId"] as? String ?? ""),
                                                     name: span["name"] as? String ?? ""))
                    }
                }
            }
            spans.withLock { $0 += received }
        }

        /// OTLP/JSON says hex; protobuf's JSON mapping of bytes is base64: either is read as hex.
        static func hex(_ id: String) -> String {
            if id.count == 32, id.allSatisfy(\.isHexDigit) { return id.lowercased() }
            return Data(base64Encoded: id).map { $0.map { String(format: "%02x", $0) }.joined() } ?? id
        }
    }

    /// Starts the OTLP receiver and one `muster serve <role>` process per role, each exporting to it,
    /// ready; `body` gets each role's HTTP port. `setUp` runs on the log first (keys the test needs).
    static func withTracedServices(_ roles: [String], environment: [String: String] = [:], setUp: (TestLog) async throws -> Void,
                                   _ body: (_ ports: [String: Int], _ receiver: Receiver) async throws -> Void) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        let receiver = Receiver()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            receiver.take(try await request.body.collect(upTo: 16 << 20))
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let receiverPort = try freePort()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: receiverPort)))
        try await apps.withTestLog { env in
            try await setUp(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                let otel = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiverPort)", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                            "OTEL_BSP_SCHEDULE_DELAY": "200", "OTEL_TRACES_SAMPLER": "parentbased_always_on",
                            "MUSTER_GAZETTEER": Repository.path("Tests/Fixtures/gazetteer-sample.tsv")].merging(environment) { $1 }
                var processes: [Process] = []
                defer { for process in processes { process.terminate() } }
                var ports: [String: Int] = [:]
                for role in roles {
                    let port = try freePort()
                    ports[role] = port
                    processes.append(try ServeProcess.start(role, natsURL: env.server.url, data: env.server.directory.appendingPathComponent("traces-\(role)"),
                                                            port: port, metricsPort: nil, instance: "traces-\(role)", environment: otel))
                    try await eventually("\(role) ready", timeout: .seconds(60)) {
                        (try? await SharedLimitsTests.call("http://127.0.0.1:\(port)/ready")) == 200
                    }
                }
                try await body(ports, receiver)
                group.cancelAll()
            }
        }
    }

    /// A new trace id and the `traceparent` header that starts a request in it.
    static func newTrace() -> (id: String, header: String) {
        let id = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        return (id, "00-\(id)-00f067aa0ba902b7-01")
    }

    /// Waits until the spans of `traceID` hold, for each service, a span whose name begins with each
    /// of its prefixes (spans come in batches, each process's when it is ready); prints them all.
    static func trace(_ traceID: String, expecting: [String: [String]], in receiver: Receiver) async throws {
        func names() -> [String: [String]] {
            let trace = receiver.spans.withLock { $0 }.filter { $0.traceID == traceID }
            return Dictionary(grouping: trace, by: \.service).mapValues { Set($0.map(\.name)).sorted() }
        }
        do {
            try await eventually("the trace's spans", timeout: .seconds(60)) {
                let seen = names()
                return expecting.allSatisfy { service, prefixes in
                    prefixes.allSatisfy { prefix in seen[service]?.contains { $0.hasPrefix(prefix) } == true }
                }
            }
        } catch {
            Issue.record("wanted \(expecting.sorted { $0.key < $1.key }); the trace has \(names().sorted { $0.key < $1.key })")
            throw error
        }
        let seen = names()
        print("traces: one request, \(seen.values.map(\.count).reduce(0, +)) kinds of span in \(seen.count) services: \(seen.sorted { $0.key < $1.key })")
    }

    @Test func oneSubmittedActionIsOneTraceAcrossIngestGeocodeAndQuery() async throws {
        let (key, issued) = issuedKey(scopes: ["write:submit-strike"])
        try await Self.withTracedServices(["ingest", "geocode", "query"], setUp: { _ = try await $0.log.append(issued) }) { ports, receiver in
            let trace = Self.newTrace()
            let status = try await SharedLimitsTests.call("http://127.0.0.1:\(ports["ingest"] ?? 0)/api/mobile/submit-strike", method: "POST",
                                                          headers: ["X-API-Key": key, "traceparent": trace.header], body: """
                {"employer": {"name": "Traced Freight"}, "action": {"organization": "Local 9", "actionType": "strike",
                 "location": "Rapid City, SD", "startDate": "2026-11-01", "durationDays": 3, "description": "traced"}}
                """)
            #expect(status == 201)
            try await Self.trace(trace.id, expecting: ["muster-ingest": ["/api/mobile/submit-strike", "append opl.action.submitted"],
                                                       "muster-geocode": ["process ", "append opl.action.geocoded"],
                                                       "muster-query": ["fold opl"]], in: receiver)
        }
    }

    /// A push asked of ingest is sent by the notifier through the APNs stand-in (its own process, as
    /// `make run APNS=standin` starts it): the claim, the provider call and the outcome are spans of
    /// the request's trace, and query folds the outcome in it.
    @Test func aPushIsOneTraceFromTheRequestThroughTheProviderCall() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("muster-traced-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certs = try await runToEnd(Repository.path("scripts/make-certs.sh"), [folder.path], within: .seconds(60))
        try #require(certs.status == 0, "make-certs.sh: \(certs.error)")
        let p8 = folder.appendingPathComponent("AuthKey.p8").path
        let key = try await runToEnd("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8], within: .seconds(60))
        try #require(key.status == 0, "openssl: \(key.error)")
        let standInPort = try freePort()
        let standIn = Process()
        standIn.executableURL = URL(fileURLWithPath: KillNineTests.standIns)
        standIn.arguments = ["apns", "--port", "\(standInPort)", "--cert", folder.appendingPathComponent("cert.pem").path,
                             "--key", folder.appendingPathComponent("key.pem").path, "--apns-key", p8]
        standIn.standardOutput = FileHandle.nullDevice
        standIn.standardError = FileHandle.nullDevice
        try standIn.runAlone()
        defer { standIn.terminate() }
        try await eventually("the APNs stand-in listens") { (try? RawSocket(port: standInPort)) != nil }

        let (deviceKey, deviceIssued) = issuedKey(app: "shieldai", scopes: ["devices:register"])
        let (pushKey, pushIssued) = issuedKey(app: "shieldai", scopes: ["push:send"])
        let apns = ["MUSTER_APNS_KEY_FILE": p8, "MUSTER_APNS_KEY_ID": "DEMOKEY001", "MUSTER_APNS_TEAM_ID": "DEMOTEAM01",
                    "MUSTER_APNS_SANDBOX_URL": "https://127.0.0.1:\(standInPort)", "MUSTER_APNS_PRODUCTION_URL": "https://127.0.0.1:\(standInPort)",
                    "MUSTER_APNS_CA_FILE": folder.appendingPathComponent("cert.pem").path]
        try await Self.withTracedServices(["ingest", "notifier", "query"], environment: apns, setUp: { env in
            _ = try await env.log.append(deviceIssued)
            _ = try await env.log.append(pushIssued)
        }) { ports, receiver in
            let ingest = "http://127.0.0.1:\(ports["ingest"] ?? 0)"
            let token = String(repeating: "ab", count: 32)
            #expect(try await SharedLimitsTests.call(ingest + "/api/devices", method: "POST", headers: ["X-API-Key": deviceKey], body: """
                {"token": "\(token)", "platform": "ios", "bundleId": "com.kordant.shieldai", "environment": "sandbox"}
                """) == 201)
            let trace = Self.newTrace()
            // The device is in the notifier's fold before the push is asked (else it would find no one).
            try await Task.sleep(for: .seconds(1))
            #expect(try await SharedLimitsTests.call(ingest + "/api/push", method: "POST", headers: ["X-API-Key": pushKey, "traceparent": trace.header],
                                                     body: #"{"audience": {"tokens": ["\#(token)"]}, "title": "Scan finished", "body": "Tap to review"}"#) == 202)
            try await Self.trace(trace.id, expecting: ["muster-ingest": ["/api/push", "append push.send.requested"],
                                                       "muster-notifier": ["send push", "append push.send.dispatched", "APNs send",
                                                                           "append push.send.delivered"],
                                                       "muster-query": ["fold pushes"]], in: receiver)
        }
    }
}
