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

    @Test func oneSubmittedActionIsOneTraceAcrossIngestGeocodeAndQuery() async throws {
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
            let (key, issued) = issuedKey(scopes: ["write:submit-strike"])
            _ = try await env.log.append(issued)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                let otel = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiverPort)", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                            "OTEL_BSP_SCHEDULE_DELAY": "200", "OTEL_TRACES_SAMPLER": "parentbased_always_on",
                            "MUSTER_GAZETTEER": Repository.path("Tests/Fixtures/gazetteer-sample.tsv")]
                var processes: [Process] = []
                defer { for process in processes { process.terminate() } }
                var ingestPort = 0
                for role in ["ingest", "geocode", "query"] {
                    let port = try freePort()
                    if role == "ingest" { ingestPort = port }
                    processes.append(try ServeProcess.start(role, natsURL: env.server.url, data: env.server.directory.appendingPathComponent("traces-\(role)"),
                                                            port: port, metricsPort: nil, instance: "traces-\(role)", environment: otel))
                    try await eventually("\(role) ready", timeout: .seconds(60)) {
                        (try? await SharedLimitsTests.call("http://127.0.0.1:\(port)/ready")) == 200
                    }
                }

                // The caller's own trace: every span of the action must be in it.
                let traceID = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
                let status = try await SharedLimitsTests.call("http://127.0.0.1:\(ingestPort)/api/mobile/submit-strike", method: "POST",
                                                              headers: ["X-API-Key": key, "traceparent": "00-\(traceID)-00f067aa0ba902b7-01"],
                                                              body: """
                    {"employer": {"name": "Traced Freight"}, "action": {"organization": "Local 9", "actionType": "strike",
                     "location": "Rapid City, SD", "startDate": "2026-11-01", "durationDays": 3, "description": "traced"}}
                    """)
                #expect(status == 201)
                let wanted: Set = ["muster-ingest", "muster-geocode", "muster-query"]
                try await eventually("spans of the trace from ingest, geocode and query", timeout: .seconds(60)) {
                    Set(receiver.spans.withLock { $0 }.filter { $0.traceID == traceID }.map(\.service)).isSuperset(of: wanted)
                }
                let trace = receiver.spans.withLock { $0 }.filter { $0.traceID == traceID }
                let names = Dictionary(grouping: trace, by: \.service).mapValues { Set($0.map(\.name)).sorted() }
                print("traces: one request, \(trace.count) spans in \(names.count) services: \(names.sorted { $0.key < $1.key })")
                #expect(names["muster-ingest"]?.contains { $0.hasPrefix("append opl.action.submitted") } == true, "\(names)")
                #expect(names["muster-geocode"]?.contains { $0.hasPrefix("process ") } == true, "\(names)")
                #expect(names["muster-geocode"]?.contains { $0.hasPrefix("append opl.action.geocoded") } == true, "\(names)")
                #expect(names["muster-query"]?.contains { $0.hasPrefix("fold ") } == true, "\(names)")
                group.cancelAll()
            }
        }
    }
}
