import Foundation
import Logging
import MusterLog
import MusterNATS

/// Everything a `muster` process is told at start: flags win over environment, environment over defaults.
public struct MusterConfiguration: Sendable {
    public var natsURL = "nats://127.0.0.1:4222"
    public var natsCredentials: String?
    public var httpHost = "127.0.0.1"
    public var httpPort = 8080
    public var dataDirectory = ".data/muster"
    public var logLevel: Logger.Level = .info
    public var logFormat: LogFormat = .text
    /// Distinguishes this process's projection consumers from other processes' (a compose service name, say).
    public var instance = "local"
    public var streamReplicas = 1
    /// Bound on finishing in-flight work after SIGTERM.
    public var shutdownGrace: Duration = .seconds(15)

    public init() {}

    /// Reads `MUSTER_*` variables.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MusterConfiguration {
        var config = MusterConfiguration()
        if let v = environment["MUSTER_NATS_URL"] { config.natsURL = v }
        if let v = environment["MUSTER_NATS_CREDS"], !v.isEmpty { config.natsCredentials = v }
        if let v = environment["MUSTER_HTTP_HOST"] { config.httpHost = v }
        if let v = environment["MUSTER_HTTP_PORT"] {
            guard let port = Int(v), (0...65535).contains(port) else { throw ConfigurationError("MUSTER_HTTP_PORT=\(v) is not a port") }
            config.httpPort = port
        }
        if let v = environment["MUSTER_DATA_DIR"] { config.dataDirectory = v }
        if let v = environment["MUSTER_LOG_LEVEL"] {
            guard let level = Logger.Level(rawValue: v.lowercased()) else {
                throw ConfigurationError("MUSTER_LOG_LEVEL=\(v) is not one of trace, debug, info, notice, warning, error, critical")
            }
            config.logLevel = level
        }
        if let v = environment["MUSTER_LOG_FORMAT"] {
            guard let format = LogFormat(rawValue: v.lowercased()) else { throw ConfigurationError("MUSTER_LOG_FORMAT=\(v) must be text or json") }
            config.logFormat = format
        }
        if let v = environment["MUSTER_INSTANCE"] { config.instance = v }
        if let v = environment["MUSTER_STREAM_REPLICAS"] {
            guard let n = Int(v), [1, 3, 5].contains(n) else { throw ConfigurationError("MUSTER_STREAM_REPLICAS=\(v) must be 1, 3 or 5") }
            config.streamReplicas = n
        }
        return config
    }

    public var nats: NATSConfiguration {
        NATSConfiguration(url: natsURL, name: "muster-\(instance)", credentialsFile: natsCredentials)
    }

    public var logConfiguration: LogConfiguration {
        var log = LogConfiguration()
        log.replicas = streamReplicas
        return log
    }

    public var projectionsDirectory: URL {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("projections")
    }
}

public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
