public import Logging
import MusterNATS
public import ServiceLifecycle

/// Keeps `LogAvailability` current while nothing is written, and moves the process off a NATS
/// server that cannot reach the log.
///
/// Once a second it asks for the events stream's info:
/// in a cluster only the stream's leader answers, so an answer means writes can be stored. When
/// the log has been unreachable for `leaveAfter` while the connection itself is fine (the server
/// answers pings but is cut from its peers, or left in a minority), it drops that server; libnats
/// then reconnects to another one of its list. A server that went silent altogether is left by
/// libnats's own pings, sooner.
public struct LogWatch: Service {
    public let log: EventLog
    public var interval: Duration
    public var leaveAfter: Duration
    let logger: Logger

    public init(log: EventLog, interval: Duration = .seconds(1), leaveAfter: Duration = .seconds(4), logger: Logger) {
        self.log = log
        self.interval = interval
        self.leaveAfter = leaveAfter
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await watch() }
    }

    func watch() async {
        let probe = JetStream(log.jetStream.connection, apiTimeout: min(interval, .seconds(1)))
        var lastLeave: ContinuousClock.Instant?
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let started = ContinuousClock.now
            do {
                _ = try await probe.streamInfo(log.configuration.eventsStream)
                log.availability.succeeded(startedAt: started, isProbe: true)
            } catch let error as NATSError {
                // A missing stream takes no writes either, whatever its error says.
                let unavailable = error.code == .notFound || error.code == .jetStreamAPI && error.apiErrorCode != 10008
                    ? NATSError(.noResponders, error.message) : error
                log.availability.failed(startedAt: started, unavailable, isWrite: false)
            } catch {
                continue
            }
            let connection = log.jetStream.connection
            let now = ContinuousClock.now
            guard !log.availability.isReachable, log.availability.unreachableFor >= leaveAfter,
                  connection.status == .connected, connection.knownServers.count > 1,
                  lastLeave.map({ now - $0 >= leaveAfter * 2 }) ?? true else { continue }
            logger.warning("the log has been unreachable through this NATS server for \(log.availability.unreachableFor); trying another")
            if connection.leaveCurrentServer() { lastLeave = now }
        }
    }
}
