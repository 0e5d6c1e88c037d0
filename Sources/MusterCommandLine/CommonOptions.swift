package import ArgumentParser
import Foundation
package import Logging
import MusterEvents
package import MusterLog
package import MusterNATS
package import MusterRuntime
import MusterServices

/// Options every command (`muster`, `muster-bench`) shares. Flags win over MUSTER_* variables, which win over defaults.
package struct CommonOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: "NATS server URL (MUSTER_NATS_URL; default nats://127.0.0.1:4222).")
    package var natsURL: String?

    @Option(name: .long, help: "NATS credentials file (MUSTER_NATS_CREDS).")
    package var natsCreds: String?

    @Option(name: .long, help: "Folder for projection snapshots (MUSTER_DATA_DIR; default .data/muster).")
    package var dataDir: String?

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical (MUSTER_LOG_LEVEL).")
    package var logLevel: String?

    @Option(name: .long, help: "Name of this process's projection consumers (MUSTER_INSTANCE; default local).")
    package var instance: String?

    package init() {}

    package func configuration() throws -> MusterConfiguration {
        var config = try MusterConfiguration.fromEnvironment(modules: MusterProcess.apps.settings)
        try config.set(.natsURL, flag: natsURL, source: "--nats-url")
        try config.set(.natsCredentials, flag: natsCreds, source: "--nats-creds")
        try config.set(.dataDirectory, flag: dataDir, source: "--data-dir")
        try config.set(.instance, flag: instance, source: "--instance")
        try config.set(.logLevel, flag: logLevel, source: "--log-level")
        return config
    }

    package func logger(_ config: MusterConfiguration, label: String = "muster") -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = config.logLevel
        return logger
    }

    /// Connects and opens the log (creating its streams if this is a fresh server, never changing
    /// the settings the services gave them: replicas, retention), then runs `body`.
    package func withLog<T: Sendable>(quiet: Bool = true, _ body: (EventLog, MusterConfiguration, Logger) async throws -> T) async throws -> T {
        try await withJetStream(quiet: quiet) { jetStream, config, logger in
            let log = EventLog(jetStream: jetStream, catalog: MusterProcess.apps.catalog, configuration: config.logConfiguration,
                               source: "muster/cli")
            try await log.bootstrap(updating: false)
            return try await body(log, config, logger)
        }
    }

    /// Connects and runs `body` with JetStream as the server has it, creating nothing (a backup
    /// reads what is there; a restore into a fresh server must find it empty).
    package func withJetStream<T: Sendable>(quiet: Bool = true, apiTimeout: Duration = .seconds(5),
                                            _ body: (JetStream, MusterConfiguration, Logger) async throws -> T) async throws -> T {
        var config = try configuration()
        if quiet && logLevel == nil { config.logLevel = .warning }
        let logger = logger(config)
        let connection: NATSConnection
        do {
            connection = try await NATSConnection.connect(config.nats, logger: logger)
        } catch {
            // A failure, not a clean exit: a script that issues a key must stop when no key was issued.
            throw CommandFailure("cannot reach NATS at \(config.nats.redactedURL): \(error)\nIs it running? `make run` starts one.")
        }
        do {
            let result = try await body(JetStream(connection, apiTimeout: apiTimeout), config, logger)
            await connection.drain()
            return result
        } catch {
            await connection.drain()
            throw error
        }
    }
}

extension MusterConfiguration {
    /// A flag overrides the environment only when it was given.
    package mutating func set(_ setting: Setting, flag: String?, source: String) throws {
        if let flag { try set(setting, flag, source: source) }
    }
}

/// Writes to standard error.
package func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// A failure the user can act on: printed as is, exit status 1.
package struct CommandFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
