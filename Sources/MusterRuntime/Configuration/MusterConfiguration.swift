package import Foundation
package import Logging
import MusterEvents
package import MusterLog
package import MusterNATS

/// Everything a `muster` process is told at start: flags win over environment, environment over defaults.
package struct MusterConfiguration: Sendable {
    package var natsURL = "nats://127.0.0.1:4222"
    package var natsCredentials: String?
    /// libnats pings every `natsPingInterval` and calls a server dead after `natsMaxPingsOut`
    /// unanswered (docs/operations.md, "What an app sees when NATS fails").
    package var natsPingInterval: Duration = .seconds(1)
    package var natsMaxPingsOut = 3
    /// How long a write waits for the log's ack before it is answered 503.
    package var writeDeadline: Duration = .seconds(5)
    package var httpHost = "127.0.0.1"
    package var httpPort = 8080
    package var dataDirectory = ".data/muster"
    package var logLevel: Logger.Level = .info
    package var logFormat: LogFormat = .text
    /// Distinguishes this process's projection consumers from other processes' (a compose service name, say).
    package var instance = "local"
    /// Set by the process when a tracer is bootstrapped (OTEL_* variables): HTTP requests get spans.
    package var tracing = false
    package var streamReplicas = 1
    /// The most bytes the event stream may hold (`MUSTER_LOG_MAX_BYTES`); nil: as much as the
    /// server's `max_file_store` allows. When it is reached, writes are refused (503, "the log is
    /// full"): the log never drops old events to make room.
    package var logMaxBytes: Int64?
    /// Requests per minute one API key may make to read routes / write routes; 0 turns the limit off.
    package var readRatePerMinute = 600
    package var writeRatePerMinute = 30
    /// Time limits for a request's head and body, the keep-alive idle limit, and the bound on open connections.
    package var connectionLimits = ConnectionLimits()
    /// Where Prometheus scrapes `/metrics`: its own port, never the public one; nil turns it off, 0 picks a free port.
    package var metricsPort: Int? = 9464
    /// The proxies whose `X-Forwarded-For` names the client (the gateway); none by default, so a
    /// client's own header is never believed.
    package var trustedProxies = TrustedProxies()
    /// Every module's own settings (`AppSettings`), by type.
    private var modules: [ObjectIdentifier: any AppSettings] = [:]
    /// The `MUSTER_*` variables the process was started with: modules read theirs from here.
    package var variables: [String: String] = [:]
    /// Bound on finishing in-flight work after SIGTERM.
    package var shutdownGrace: Duration = .seconds(15)

    package init() {}

    /// Every setting, by its environment variable.
    package enum Setting: String, CaseIterable, Sendable {
        case natsURL = "MUSTER_NATS_URL"
        case natsCredentials = "MUSTER_NATS_CREDS"
        case natsPingInterval = "MUSTER_NATS_PING_INTERVAL"
        case natsMaxPingsOut = "MUSTER_NATS_MAX_PINGS_OUT"
        case writeDeadline = "MUSTER_WRITE_DEADLINE"
        case httpHost = "MUSTER_HTTP_HOST"
        case httpPort = "MUSTER_HTTP_PORT"
        case dataDirectory = "MUSTER_DATA_DIR"
        case logLevel = "MUSTER_LOG_LEVEL"
        case logFormat = "MUSTER_LOG_FORMAT"
        case instance = "MUSTER_INSTANCE"
        case streamReplicas = "MUSTER_STREAM_REPLICAS"
        case logMaxBytes = "MUSTER_LOG_MAX_BYTES"
        case readRate = "MUSTER_RATE_READ"
        case writeRate = "MUSTER_RATE_WRITE"
        case headTimeout = "MUSTER_HTTP_HEAD_TIMEOUT"
        case bodyTimeout = "MUSTER_HTTP_BODY_TIMEOUT"
        case idleTimeout = "MUSTER_HTTP_IDLE_TIMEOUT"
        case maxConnections = "MUSTER_HTTP_MAX_CONNECTIONS"
        case maxConnectionsPerAddress = "MUSTER_HTTP_MAX_CONNECTIONS_PER_ADDRESS"
        case metricsPort = "MUSTER_METRICS_PORT"
        case trustedProxies = "MUSTER_TRUSTED_PROXIES"
    }

    /// Sets one setting from text. The environment and the command-line flags both come through
    /// here, so a value means the same and is refused the same way wherever it comes from.
    /// - Parameter source: how the user gave it (`--port`), for the error; the variable by default.
    package mutating func set(_ setting: Setting, _ value: String, source: String? = nil) throws {
        let given = "\(source ?? setting.rawValue)=\(value)"
        switch setting {
        case .natsURL: natsURL = value
        case .natsCredentials: natsCredentials = value.isEmpty ? nil : value
        case .httpHost: httpHost = value
        case .httpPort:
            guard let port = Int(value), (0...65535).contains(port) else { throw ConfigurationError("\(given) is not a port") }
            httpPort = port
        case .dataDirectory: dataDirectory = value
        case .logLevel:
            guard let level = Logger.Level(rawValue: value.lowercased()) else {
                throw ConfigurationError("\(given) is not one of trace, debug, info, notice, warning, error, critical")
            }
            logLevel = level
        case .logFormat:
            guard let format = LogFormat(rawValue: value.lowercased()) else { throw ConfigurationError("\(given) must be text or json") }
            logFormat = format
        case .instance:
            // It becomes part of NATS consumer names, so it must be one subject token. `{hostname}`
            // names each replica of a scaled container apart (a container's host name is its id):
            // replicas sharing one name would share one consumer and each fold half the log.
            let host = ProcessInfo.processInfo.hostName.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
            let value = value.replacingOccurrences(of: "{hostname}", with: String(host))
            guard Subject.isToken(value) else { throw ConfigurationError("\(given) must be letters, digits, - or _ (or {hostname})") }
            instance = value
        case .streamReplicas:
            guard let n = Int(value), [1, 3, 5].contains(n) else { throw ConfigurationError("\(given) must be 1, 3 or 5") }
            streamReplicas = n
        case .logMaxBytes:
            if value.isEmpty { logMaxBytes = nil; return } // compose's `${MUSTER_LOG_MAX_BYTES:-}`: no limit of its own
            guard let bytes = Self.bytes(value), bytes >= 1_048_576 else {
                throw ConfigurationError("\(given) must be a size of at least 1MB (bytes, or with KB, MB, GB, TB)")
            }
            logMaxBytes = bytes
        case .readRate, .writeRate:
            guard let n = Int(value), n >= 0 else { throw ConfigurationError("\(given) must be requests per minute, 0 for no limit") }
            if setting == .readRate { readRatePerMinute = n } else { writeRatePerMinute = n }
        case .headTimeout, .bodyTimeout, .idleTimeout, .natsPingInterval, .writeDeadline:
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0.1, seconds <= 3600 else {
                throw ConfigurationError("\(given) must be seconds, at least 0.1 and at most 3600")
            }
            let duration = Duration.milliseconds(Int64((seconds * 1000).rounded()))
            switch setting {
            case .headTimeout: connectionLimits.headTimeout = duration
            case .bodyTimeout: connectionLimits.bodyTimeout = duration
            case .natsPingInterval: natsPingInterval = duration
            case .writeDeadline: writeDeadline = duration
            default: connectionLimits.idleTimeout = duration
            }
        case .natsMaxPingsOut:
            guard let n = Int(value), (1...100).contains(n) else { throw ConfigurationError("\(given) must be from 1 to 100") }
            natsMaxPingsOut = n
        case .maxConnections:
            guard let n = Int(value), (1...1_000_000).contains(n) else { throw ConfigurationError("\(given) must be from 1 to 1000000") }
            connectionLimits.maxConnections = n
        case .maxConnectionsPerAddress:
            guard let n = Int(value), (1...1_000_000).contains(n) else { throw ConfigurationError("\(given) must be from 1 to 1000000") }
            connectionLimits.maxPerAddress = n
        case .metricsPort:
            if value == "off" { metricsPort = nil; return }
            guard let port = Int(value), (0...65535).contains(port) else { throw ConfigurationError("\(given) is not a port (or off)") }
            metricsPort = port
        case .trustedProxies:
            guard let proxies = TrustedProxies(parsing: value) else {
                throw ConfigurationError("\(given) must be addresses or IPv4 ranges, comma-separated (10.0.0.5, 172.28.0.0/16)")
            }
            trustedProxies = proxies
        }
    }

    /// Reads `MUSTER_*` variables: the process's, then each of `modules`' own.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                        modules: [any AppSettings.Type] = []) throws -> MusterConfiguration {
        var config = MusterConfiguration()
        config.variables = environment.filter { $0.key.hasPrefix("MUSTER_") }
        for setting in Setting.allCases {
            if let value = environment[setting.rawValue] { try config.set(setting, value) }
        }
        try config.readSettings(modules)
        return config
    }

    /// Reads each of `modules`' variables from `variables` over what they hold (a test's own
    /// values stay unless a variable names another).
    package mutating func readSettings(_ modules: [any AppSettings.Type]) throws {
        for module in modules { try readSettings(module) }
    }

    private mutating func readSettings<S: AppSettings>(_ module: S.Type) throws {
        var settings = self[S.self]
        try settings.read(variables)
        self[S.self] = settings
    }

    /// One module's settings: what the environment said, or the module's defaults.
    package subscript<S: AppSettings>(_ module: S.Type) -> S {
        get { modules[ObjectIdentifier(module)] as? S ?? S() }
        set { modules[ObjectIdentifier(module)] = newValue }
    }

    package var nats: NATSConfiguration {
        NATSConfiguration(url: natsURL, name: "muster-\(instance)", credentialsFile: natsCredentials,
                          pingInterval: natsPingInterval, maxPingsOut: natsMaxPingsOut)
    }

    package var logConfiguration: LogConfiguration {
        var log = LogConfiguration()
        log.replicas = streamReplicas
        log.appendTimeout = writeDeadline
        log.maxBytes = logMaxBytes
        return log
    }

    /// A size as operators write it: `500000000`, `500MB`, `50GB` (powers of 1024, as nats-server reads them).
    static func bytes(_ text: String) -> Int64? {
        let units: [(String, Int64)] = [("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
        for (suffix, factor) in units where upper.hasSuffix(suffix) {
            guard let number = Int64(upper.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), number >= 0 else { return nil }
            let (bytes, overflow) = number.multipliedReportingOverflow(by: factor)
            return overflow ? nil : bytes
        }
        return Int64(upper).flatMap { $0 >= 0 ? $0 : nil }
    }

    package var projectionsDirectory: URL {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("projections")
    }
}

package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
