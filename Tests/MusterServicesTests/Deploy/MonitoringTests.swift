import Foundation
import FoundationNetworking
import MusterAppTesting
import MusterTesting
import Testing

/// What operators watch (deploy/prometheus, deploy/grafana): promtool accepts the configuration
/// and the alert rules and passes the rules' own tests, and every metric an alert or a dashboard
/// panel reads is in the scrape of a running `muster serve all`.
@Suite("Alerts and dashboards", .serialized)
struct MonitoringTests {
    static let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// promtool's status and what it printed (awaited: a blocking wait would hold one of the suite's few threads).
    static func promtool(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let tool = try #require(promtool, "promtool (Debian's prometheus package; make deps installs it)")
        let run = try await runToEnd(tool, arguments, in: URL(fileURLWithPath: Repository.path("deploy/prometheus")), within: .seconds(120))
        return (run.status, run.output + run.error)
    }

    /// The metric families an expression names (`_bucket`, `_sum` and `_count` are a histogram's).
    static func families(in text: String) -> Set<String> {
        let names = text.matches(of: /muster_[a-z_]+/).map { String($0.output) }
        return Set(names.map { name in
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
            return name
        })
    }

    @Test(.enabled(if: promtool != nil, "promtool is not installed (Debian's prometheus package; make deps installs it)"))
    func promtoolAcceptsTheRulesTheirTestsAndTheConfiguration() async throws {
        for arguments in [["check", "rules", "alerts.yml"], ["test", "rules", "alerts_test.yml"], ["check", "config", "prometheus.yml"]] {
            let (status, output) = try await Self.promtool(arguments)
            #expect(status == 0, "promtool \(arguments.joined(separator: " ")):\n\(output)")
        }
    }

    @Test func everyMetricAnAlertOrAPanelReadsIsInALiveScrape() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        let dashboard = try String(contentsOfFile: Repository.path("deploy/grafana/dashboards/muster.json"), encoding: .utf8)
        let alerts = try String(contentsOfFile: Repository.path("deploy/prometheus/alerts.yml"), encoding: .utf8)
        let panels = try #require(try JSONSerialization.jsonObject(with: Data(dashboard.utf8)) as? [String: Any])["panels"] as? [[String: Any]] ?? []
        let expressions = panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
        #expect(expressions.count == panels.count && !panels.isEmpty, "every panel queries something")
        let wanted = Self.families(in: expressions.joined(separator: "\n") + "\n" + alerts)
        try await apps.withTestLog { env in
            let (port, metricsPort) = (try freePort(), try freePort())
            let process = try ServeProcess.start("all", natsURL: env.server.url, data: env.server.directory.appendingPathComponent("monitoring"),
                                                 port: port, metricsPort: metricsPort, instance: "monitoring")
            defer { process.terminate() }
            try await eventually("serving", timeout: .seconds(60)) { (try? await MetricsTests.get("http://127.0.0.1:\(port)/ready"))?.status == 200 }
            _ = try await MetricsTests.get("http://127.0.0.1:\(port)/health") // a request, so the request families have a series
            let scrape = try await MetricsTests.get("http://127.0.0.1:\(metricsPort)/metrics").body
            let scraped = Set(scrape.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
            #expect(wanted.subtracting(scraped).isEmpty, "read by a panel or an alert, not in the scrape: \(wanted.subtracting(scraped).sorted())")
            print("monitoring: \(panels.count) panels and the alert rules read \(wanted.count) families, all in the scrape")
        }
    }
}
