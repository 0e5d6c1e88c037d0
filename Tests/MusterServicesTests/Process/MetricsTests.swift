import Foundation
import FoundationNetworking
import MusterAppTesting
import MusterTesting
import Testing

/// `/metrics` as Prometheus sees it, from a real `muster serve` process: on its own port, help
/// text for every family, one request counter with 4xx and 5xx apart, and a restart counter.
@Suite("Metrics of a running process", .serialized)
struct MetricsTests {
    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func serve(_ env: TestLog, data: URL, port: Int, metricsPort: Int) throws -> Process {
        try ServeProcess.start("query", natsURL: env.server.url, data: data, port: port, metricsPort: metricsPort, instance: "metricstest")
    }

    @Test func scrapedFromItsOwnPortWithHelpForEveryFamily() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        try await apps.withTestLog { env in
            let data = env.server.directory.appendingPathComponent("metricstest")
            let (port, metricsPort) = (try freePort(), try freePort())
            let base = "http://127.0.0.1:\(port)", metrics = "http://127.0.0.1:\(metricsPort)/metrics"
            var process = try serve(env, data: data, port: port, metricsPort: metricsPort)
            defer { process.terminate() }
            try await eventually("serving", timeout: .seconds(30)) { (try? await Self.get(base + "/health"))?.status == 200 }

            #expect(try await Self.get(base + "/api/mobile/data?lat=0&lng=0").status == 401)
            #expect(try await Self.get(base + "/nothing").status == 404)
            #expect(try await Self.get(base + "/metrics").status == 404, "not on the public port")
            let scrape = try await Self.get(metrics)
            #expect(scrape.status == 200)
            let lines = scrape.body.split(separator: "\n")
            let families = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
            let helped = Set(lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
            #expect(!families.isEmpty)
            #expect(families.filter { !helped.contains($0) }.isEmpty, "families without help: \(families.filter { !helped.contains($0) })")
            #expect(families.filter { $0.contains("request") && $0.hasSuffix("_total") } == ["muster_http_requests_total"],
                    "one request counter: \(families)")
            let requests = lines.filter { $0.hasPrefix("muster_http_requests_total{") }
            #expect(requests.contains { $0.contains(#"status="2xx""#) && $0.contains(#"route="/health""#) })
            #expect(requests.contains { $0.contains(#"status="4xx""#) && $0.contains(#"route="unmatched""#) })
            #expect(!requests.contains { $0.contains(#"status="5xx""#) })
            #expect(lines.contains("muster_process_restarts_total 0"))
            // The process's own figures, as the soak samples them.
            let resident = lines.first { $0.hasPrefix("muster_process_resident_memory_bytes ") }.flatMap { Double($0.split(separator: " ")[1]) }
            let files = lines.first { $0.hasPrefix("muster_process_open_fds ") }.flatMap { Double($0.split(separator: " ")[1]) }
            #expect((resident ?? 0) > 10_000_000 && (files ?? 0) > 5, "RSS \(resident ?? 0), open files \(files ?? 0)")

            process.terminate()
            try await process.waitForExit(within: .seconds(60), "muster serve query after SIGTERM")
            process = try serve(env, data: data, port: port, metricsPort: metricsPort)
            try await eventually("serving again", timeout: .seconds(30)) { (try? await Self.get(metrics))?.status == 200 }
            #expect(try await Self.get(metrics).body.split(separator: "\n").contains("muster_process_restarts_total 1"))
        }
    }
}
