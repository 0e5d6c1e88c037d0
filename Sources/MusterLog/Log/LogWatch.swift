package import Logging
import MusterNATS
import ServiceLifecycle

/// Keeps `LogAvailability` current while nothing is written, and moves the process off a NATS
/// server that cannot reach the log.
///
/// Once a second, unless a write got through in that second (then the log is known to take
/// writes, and a busy process asks nothing more of NATS), it asks for the events stream's info:
/// in a cluster only the stream's leader answers, so an answer means writes can be stored. When
/// the log has been unreachable for `leaveAfter` while the connection itself is fine (the server
/// answers pings but is cut from its peers, or left in a minority), it drops that server; libnats
/// then reconnects to another one of its list. A server that went silent altogether is left by
/// libnats's own pings, sooner.
///
/// A stream electing a leader is not a reason to leave: every server answers "no leader" or
/// nothing for those seconds, and moving only costs a reconnect (or a dead server's connect
/// timeout, when the next of the list is the one that failed). So a server is left only when the
/// cluster's meta leader cannot be reached through it either, or when the stream has had no
/// leader for longer than an election takes (`leaveAfter + electionPatience`): a server cut from
/// its peers that still thinks it leads the cluster answers for itself until it steps down.
package struct LogWatch: Service {
    package let log: EventLog
    package var interval: Duration
    package var leaveAfter: Duration
    /// How much longer a server that reaches the meta leader is kept while the stream has none.
    /// nats-server elects one in 2-9 s; its stale leader steps down about 10 s after losing quorum.
    package var electionPatience: Duration = .seconds(8)
    let logger: Logger

    package init(log: EventLog, interval: Duration = .seconds(1), leaveAfter: Duration = .seconds(4), logger: Logger) {
        self.log = log
        self.interval = interval
        self.leaveAfter = leaveAfter
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await watch() }
    }

    func watch() async {
        let probe = JetStream(log.jetStream.connection, apiTimeout: min(interval, .seconds(1)))
        // Said once per election, not once a second.
        var electing = false
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let started = ContinuousClock.now
            if log.availability.wroteSince(started - interval) {
                log.availability.settle()
                continue
            }
            do {
                // In a cluster, a stream between leaders still has its info answered: only a
                // leader means writes can be stored.
                let info = try await probe.streamInfo(log.configuration.eventsStream)
                if let cluster = info.cluster, cluster.leader == nil {
                    log.availability.failed(startedAt: started, NATSError(.noResponders, "the stream has no leader"), isWrite: false)
                } else {
                    log.availability.succeeded(startedAt: started, isProbe: true)
                    electing = false
                }
            } catch let error as NATSError {
                // A missing stream takes no writes either, whatever its error says.
                let unavailable = error.code == .notFound || error.code == .jetStreamAPI && error.apiErrorCode != 10008
                    ? NATSError(.noResponders, error.message) : error
                log.availability.failed(startedAt: started, unavailable, isWrite: false)
            } catch {
                continue
            }
            log.availability.settle()
            let connection = log.jetStream.connection
            let now = ContinuousClock.now
            // Unreachable for `leaveAfter` through the server it is on now: one it has just moved
            // to (libnats left the last one) gets its own `leaveAfter`.
            guard !log.availability.isReachable, log.availability.unreachableFor >= leaveAfter,
                  connection.status == .connected, now - connection.connectedAt >= leaveAfter,
                  await connection.knownServers().count > 1 else { continue }
            if log.availability.unreachableFor < leaveAfter + electionPatience, await probe.reachesMetaLeader() {
                if !electing { logger.notice("the log has no stream leader; this NATS server reaches the cluster, so staying on it") }
                electing = true
                continue
            }
            electing = false
            logger.warning("the log has been unreachable through this NATS server for \(log.availability.unreachableFor); trying another")
            _ = await connection.leaveCurrentServer()
        }
    }
}
