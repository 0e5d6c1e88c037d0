import ArgumentParser
import Logging
import Metrics
import MusterCommandLine
import MusterRuntime
import MusterServices
import Prometheus

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run services: any of \(ServiceRole.names.joined(separator: ", ")), or all.",
        discussion: "SIGTERM or Ctrl-C stops taking requests, finishes those in flight, saves projections and drains NATS.")

    @Argument(help: "Services to run (default: all).")
    var services: [String] = []

    @OptionGroup var common: CommonOptions

    @Option(name: .long, help: "HTTP listen address (MUSTER_HTTP_HOST; default 127.0.0.1).")
    var host: String?

    @Option(name: .long, help: "HTTP port (MUSTER_HTTP_PORT; default 8080; 0 picks a free one).")
    var port: Int?

    @Option(name: .long, help: "Port of /metrics, apart from the public one (MUSTER_METRICS_PORT; default 9464; 0 picks a free one; off).")
    var metricsPort: String?

    @Option(name: .long, help: "text or json (MUSTER_LOG_FORMAT; default text).")
    var logFormat: String?

    func run() async throws {
        var config = try common.configuration()
        try config.set(.httpHost, flag: host, source: "--host")
        try config.set(.httpPort, flag: port.map(String.init), source: "--port")
        try config.set(.logFormat, flag: logFormat, source: "--log-format")
        try config.set(.metricsPort, flag: metricsPort, source: "--metrics-port")
        let settings = config
        let names: [String]
        do { names = try ServiceRole.resolve(services) } catch { throw ValidationError("\(error)") }
        LoggingSystem.bootstrap { label in settings.logFormat.handler(label: label, level: settings.logLevel) }
        // One registry for the process: the metrics API is process-wide by design.
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = common.logger(settings)
        try await MusterProcess.run(names, configuration: settings, logger: logger, metrics: registry) { port in
            logger.notice("listening", metadata: ["url": "http://\(settings.httpHost):\(port)", "services": "\(names.joined(separator: ","))"])
        }
    }
}
