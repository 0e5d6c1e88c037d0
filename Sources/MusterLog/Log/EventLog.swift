import Foundation
package import Logging
package import MusterEvents
package import MusterNATS

/// The append-only log on JetStream: the `EVENTS` stream and its `DLQ`.
package struct EventLog: Sendable {
    package let jetStream: JetStream
    package let catalog: EventCatalog
    package let configuration: LogConfiguration
    package let source: String
    /// Shared by every copy of this log value: ids without a system call each.
    let ids = EventIDSource()
    /// Whether the log takes writes now, from what appends and the watch saw (shared by copies).
    package let availability: LogAvailability
    /// What this process appended lately of `StoredExactly` types, for its own folds (shared by copies).
    package let appended = AppendedEvents()

    package init(jetStream: JetStream, catalog: EventCatalog, configuration: LogConfiguration = .init(), source: String,
                logger: Logger = Logger(label: "muster.log")) {
        self.jetStream = jetStream
        self.catalog = catalog
        self.configuration = configuration
        self.source = source
        self.availability = LogAvailability(logger: logger)
    }

    var eventsStreamConfig: StreamConfig {
        var config = StreamConfig(name: configuration.eventsStream, subjects: ["events.>"])
        config.numReplicas = configuration.replicas
        config.maxAge = configuration.maxAge?.nanoseconds ?? 0
        config.duplicateWindow = configuration.duplicateWindow.nanoseconds
        config.maxMsgSize = Int32(configuration.maxEventBytes + 4096)
        config.denyDelete = true
        config.denyPurge = true
        // Full, the log refuses the next event rather than dropping its oldest: the log is the
        // only source of truth, and a refused write is one its client knows to retry.
        config.discard = .new
        config.maxBytes = configuration.maxBytes ?? -1
        // Types an app keeps for a time (analytics, crash reports) carry a per-message TTL.
        config.allowMsgTtl = true
        return config
    }

    var dlqStreamConfig: StreamConfig {
        var config = StreamConfig(name: configuration.dlqStream, subjects: ["dlq.>"])
        config.numReplicas = configuration.replicas
        config.maxAge = configuration.dlqMaxAge?.nanoseconds ?? 0
        config.duplicateWindow = 120_000_000_000
        return config
    }

    /// Creates or updates both streams; safe to call at every start-up.
    /// - Parameters:
    ///   - patience: how long to keep trying while the cluster cannot answer yet (its nodes are
    ///     starting and have no JetStream leader); other errors are thrown at once.
    ///   - updating: false for a process that only uses the log (the operator's CLI): it creates
    ///     missing streams and never changes the settings the services gave existing ones.
    package func bootstrap(patience: Duration = .zero, updating: Bool = true, logger: Logger? = nil) async throws {
        let deadline = ContinuousClock.now + patience
        var told = false
        while true {
            do {
                try await jetStream.ensureStream(eventsStreamConfig, updating: updating)
                try await jetStream.ensureStream(dlqStreamConfig, updating: updating)
                return
            } catch let error as NATSError where error.isTransient && ContinuousClock.now < deadline {
                if !told { logger?.notice("waiting for JetStream to elect a leader", metadata: ["error": "\(error)"]) }
                told = true
                try await Task.sleep(for: .milliseconds(250))
            } catch let error as NATSError where LogAvailability.isFull(error) && configuration.maxBytes != nil {
                // The server reserves a stream's byte limit when it is set: one it cannot reserve is refused.
                throw NATSError(error.code, "MUSTER_LOG_MAX_BYTES=\(configuration.maxBytes ?? 0) is more than the NATS server can reserve "
                                + "(its max_file_store, or the volume's free space): lower it (\(error.message))", apiErrorCode: error.apiErrorCode)
            }
        }
    }

    /// The first sequence the log still holds, when events on `filters` may have expired before
    /// it (a type they match is kept for a time, and the stream has lost messages); nil when the
    /// log still holds everything they match.
    package func horizon(for filters: [String]) async throws -> UInt64? {
        let matcher = SubjectFilter(filters)
        guard catalog.expiringTypes.contains(where: { matcher.matches($0.subject(aggregateID: "x")) }) else { return nil }
        let state = try await jetStream.streamInfo(configuration.eventsStream).state
        guard state.firstSeq > 1 || (state.numDeleted ?? 0) > 0 else { return nil }
        return state.firstSeq
    }

    /// True when both streams exist (what `/ready` asks).
    package func streamsPresent() async -> Bool {
        do {
            _ = try await jetStream.streamInfo(configuration.eventsStream)
            _ = try await jetStream.streamInfo(configuration.dlqStream)
            return true
        } catch {
            return false
        }
    }
}
