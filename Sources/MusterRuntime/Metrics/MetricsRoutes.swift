import Foundation
package import Hummingbird
import Logging
import Metrics
import MusterLog
import MusterNATS
import NIOPosix
import Prometheus

/// `/metrics` (Prometheus text) on a port of its own, so the public port (and the gateway) never
/// exposes it and Prometheus scrapes each process directly.
package enum MetricsRoutes {
    package static func makeApplication(environment: MusterEnvironment, port: Int,
                                       onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router()
        add(to: router, environment: environment)
        var logger = environment.logger
        logger[metadataKey: "component"] = "metrics"
        return Application(router: router,
                           configuration: .init(address: .hostname(environment.configuration.httpHost, port: port), serverName: "muster-metrics"),
                           onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
                           logger: logger)
    }

    package static func add(to router: Router<BasicRequestContext>, environment: MusterEnvironment) {
        // Made on the environment's registry, so they exist whether or not the process-wide
        // metrics system was bootstrapped (tests run many environments in one process).
        let connected = environment.metrics.makeGauge(descriptor: descriptor("nats", "connected"))
        let reconnects = environment.metrics.makeGauge(descriptor: descriptor("nats", "reconnects_total"))
        let unavailable = environment.metrics.makeGauge(descriptor: descriptor("log", "unavailable_seconds"))
        let full = environment.metrics.makeGauge(descriptor: descriptor("log", "full"))
        let resident = environment.metrics.makeGauge(descriptor: descriptor("process", "resident_memory_bytes"))
        let openFiles = environment.metrics.makeGauge(descriptor: descriptor("process", "open_fds"))
        let threads = environment.metrics.makeGauge(descriptor: descriptor("process", "threads"))
        router.get("/metrics") { _, _ -> Response in
            // The process's own figures, for a leak to show in Prometheus as the soak shows it: read
            // from /proc on NIO's blocking pool (files, however small, are not read on an event loop).
            let facts = try await NIOThreadPool.singleton.runIfActive { ProcessFacts.read() }
            if let bytes = facts.residentBytes { resident.set(Double(bytes)) }
            if let count = facts.openFiles { openFiles.set(Double(count)) }
            if let count = facts.threads { threads.set(Double(count)) }
            connected.set(Double(environment.connection.isConnected ? 1 : 0))
            reconnects.set(Double(environment.connection.reconnectCount))
            unavailable.set(environment.log.availability.unreachableFor.inSeconds)
            full.set(Double(environment.log.availability.snapshot.full ? 1 : 0))
            let text = MetricsHelp.annotate(environment.metrics.emitToBuffer())
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }

    /// Counts this start in `<data>/process-starts` and exports the restarts (starts after the
    /// first) and the start time. A restart loop shows as a rising counter across scrapes.
    package static func recordStart(environment: MusterEnvironment) {
        let file = URL(fileURLWithPath: environment.configuration.dataDirectory).appendingPathComponent("process-starts")
        let before = (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        let starts = before + 1
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "\(starts)\n".write(to: file, atomically: true, encoding: .utf8)
        } catch {
            environment.logger.warning("could not record the process start", metadata: ["file": "\(file.path)", "error": "\(error)"])
        }
        environment.metrics.makeCounter(descriptor: descriptor("process", "restarts_total")).increment(by: Int64(max(0, starts - 1)))
        environment.metrics.makeGauge(descriptor: descriptor("process", "start_time_seconds")).set(Date().timeIntervalSince1970)
        // The families alert rules and dashboards read, at 0 from the start: a rate over a series
        // that appears only with its first event misses that event, and a panel shows no data.
        for reason in ["timeout", "disconnected", "no_responders", "closed", "queue_full", "jetstream_unavailable", "other"] {
            Counter(label: "muster_writes_refused_total", dimensions: [("reason", reason)]).increment(by: 0)
        }
        for reason in ["head_timeout", "body_timeout", "idle_timeout", "over_limit"] {
            Counter(label: "muster_http_connections_closed_total", dimensions: [("reason", reason)]).increment(by: 0)
        }
        for method in ["password", "phone", "apple", "google"] {
            Counter(label: "muster_signin_failures_total", dimensions: [("method", method)]).increment(by: 0)
        }
        for provider in ["apns", "fcm"] {
            Counter(label: "muster_push_outcomes_total", dimensions: [("provider", provider), ("outcome", "delivered"), ("reason", "none")]).increment(by: 0)
        }
    }

    /// `muster_<subsystem>_<name>`, with its help text from the one table.
    /// What `/proc/self` says of this process (Linux); nil where it cannot be read.
    struct ProcessFacts: Sendable {
        var residentBytes: Int?
        var openFiles: Int?
        var threads: Int?

        static func read() -> ProcessFacts {
            var facts = ProcessFacts()
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
                for line in status.split(separator: "\n") {
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    guard fields.count >= 2, let value = Int(fields[1]) else { continue }
                    if fields[0] == "VmRSS:" { facts.residentBytes = value * 1024 }
                    if fields[0] == "Threads:" { facts.threads = value }
                }
            }
            // Less the descriptor the listing itself holds open.
            if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") { facts.openFiles = max(0, entries.count - 1) }
            return facts
        }
    }

    static func descriptor(_ subsystem: String, _ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "muster", subsystem: subsystem, metricName: name, unitName: "",
                             helpText: MetricsHelp.text["muster_\(subsystem)_\(name)"] ?? "")
    }
}
