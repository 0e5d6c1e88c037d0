package import Foundation
package import Logging
import Metrics
package import MusterNATS
import Synchronization

/// Whether the log takes writes now, as the latest writes and probes found it.
///
/// `/ready` reads it without asking NATS; a change is logged once ("log unreachable since …",
/// "log reachable again after 54 s, 312 writes refused") instead of once per failed write;
/// `muster_writes_refused_total{reason}` counts refusals and `/metrics` reads `unreachableFor`
/// into `muster_log_unavailable_seconds`. Every
/// observation carries when its operation started, so a write that was sent during an outage and
/// failed after the log came back does not undo what a later success showed.
package final class LogAvailability: Sendable {
    package struct Snapshot: Sendable, Equatable {
        package init(reachable: Bool, unreachableSince: Date?, reason: String?, refused: Int, full: Bool = false) {
            self.reachable = reachable
            self.unreachableSince = unreachableSince
            self.reason = reason
            self.refused = refused
            self.full = full
        }

        package var reachable: Bool
        /// When the log was last seen unreachable after being reachable (nil while reachable).
        package var unreachableSince: Date?
        package var reason: String?
        /// Writes refused since the log became unreachable.
        package var refused: Int
        /// Unreachable because its store is full: it answers, but takes no write until space is
        /// freed (a higher limit, expired events). Only a write that gets through clears it.
        package var full: Bool
    }

    struct State: Sendable {
        var reachable = true
        var downAt: ContinuousClock.Instant?
        var downSince: Date?
        var reason: String?
        var full = false
        var lastSuccess: ContinuousClock.Instant?
        /// The last write that got through (probes not counted): while writes keep coming, the watch need not ask.
        var lastWrite: ContinuousClock.Instant?
        var lastFailure: ContinuousClock.Instant?
        /// One outage as the log lines tell it: from the first failure to a recovery that held for
        /// `settleTime`. A log that comes and goes meanwhile (a leader being elected) stays one
        /// outage in the logs, while `/ready` follows every change.
        var episode: Episode?
    }

    struct Episode: Sendable {
        var start: ContinuousClock.Instant
        var refused = 0
        var recoveredAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let logger: Logger
    /// How long the log must stay reachable before an outage is reported over.
    let settleTime: Duration

    package init(logger: Logger = Logger(label: "muster.log"), settleTime: Duration = .seconds(2)) {
        self.logger = logger
        self.settleTime = settleTime
    }

    package var snapshot: Snapshot {
        state.withLock {
            Snapshot(reachable: $0.reachable, unreachableSince: $0.downSince, reason: $0.reason, refused: $0.episode?.refused ?? 0,
                     full: $0.full)
        }
    }

    package var isReachable: Bool { state.withLock { $0.reachable } }

    /// How long the log has been unreachable now; zero while reachable, and while full (it
    /// answers: another NATS server would not help, and the full alert says what would).
    package var unreachableFor: Duration {
        state.withLock { state in state.full ? .zero : state.downAt.map { ContinuousClock.now - $0 } ?? .zero }
    }

    /// The log took a write, or answered a probe, that started at `started`. A probe's answer
    /// counts only if no write failed after it was sent (a node cut from its peers may still
    /// answer for the stream while it can store nothing).
    package func succeeded(startedAt started: ContinuousClock.Instant, isProbe: Bool = false) {
        let now = ContinuousClock.now
        state.withLock { state in
            if isProbe, let failure = state.lastFailure, failure > started { return }
            // A full log answers probes; only a write that gets through says it has room again.
            if isProbe, state.full { return }
            state.lastSuccess = now
            if !isProbe { state.lastWrite = now }
            guard !state.reachable else { return }
            state.reachable = true
            state.full = false
            state.downAt = nil
            state.downSince = nil
            state.reason = nil
            state.episode?.recoveredAt = now
        }
        settle(now: now)
    }

    /// Whether a write got through at or after `instant` with no failure since: the log is
    /// known to take writes without asking it.
    package func wroteSince(_ instant: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            guard state.reachable, let write = state.lastWrite, write >= instant else { return false }
            return state.lastFailure.map { $0 < write } ?? true
        }
    }

    /// A write or probe that started at `started` failed for want of the log (not for its own
    /// content: a conflict or an invalid event says nothing about the log).
    package func failed(startedAt started: ContinuousClock.Instant, _ error: NATSError, isWrite: Bool) {
        guard Self.concernsAvailability(error) else { return }
        let now = ContinuousClock.now
        let since = Date(timeIntervalSinceNow: -Self.interval(now - started))
        let reason = Self.reason(error)
        let full = Self.isFull(error)
        if isWrite { Counter(label: "muster_writes_refused_total", dimensions: [("reason", reason)]).increment() }
        let newOutage = state.withLock { state -> Bool in
            if isWrite { state.episode?.refused += 1 }
            // Something started later already got through: this one only tells of the past.
            if let success = state.lastSuccess, success > started { return false }
            state.lastFailure = now
            guard state.reachable else { return false }
            state.reachable = false
            state.full = full
            state.downAt = started
            state.downSince = since
            state.reason = "\(reason): \(error.message)"
            if state.episode == nil {
                state.episode = Episode(start: started, refused: isWrite ? 1 : 0)
                return true
            }
            state.episode?.recoveredAt = nil // back down before the recovery held: the same outage
            return false
        }
        guard newOutage else { return }
        if full {
            logger.critical("log full: writes are refused with 503 until space is freed (raise MUSTER_LOG_MAX_BYTES or the server's max_file_store)",
                            metadata: ["since": "\(since)", "error": "\(error.message)"])
            return
        }
        logger.error("log unreachable: writes are refused with 503 until it is back",
                     metadata: ["since": "\(since)", "reason": "\(reason)", "error": "\(error.message)"])
    }

    /// Reports an outage over once the log has stayed reachable for `settleTime` (the watch
    /// calls this every second; a success calls it too).
    package func settle(now: ContinuousClock.Instant = .now) {
        let ended = state.withLock { state -> Episode? in
            guard state.reachable, let episode = state.episode, let recovered = episode.recoveredAt,
                  now - recovered >= settleTime else { return nil }
            state.episode = nil
            return episode
        }
        guard let ended, let recovered = ended.recoveredAt else { return }
        let outage = recovered - ended.start
        logger.notice("log reachable again after \(Self.seconds(outage)); \(ended.refused) writes refused while it was not",
                      metadata: ["outage_seconds": "\(Self.seconds(outage, unit: false))", "writes_refused": "\(ended.refused)"])
    }

    /// False for a refusal that is about the write itself (a conflict, a stream's own rule).
    static func concernsAvailability(_ error: NATSError) -> Bool {
        switch error.code {
        case .wrongLastSequence, .badReply, .notFound: false
        case .jetStreamAPI: error.apiErrorCode == 10008 || isFull(error)
        default: true
        }
    }

    /// JetStream's refusals of a write for want of room: the stream's byte limit (10077) or
    /// message limit (10078), the account's or server's storage (10027, 10047).
    package static func isFull(_ error: NATSError) -> Bool {
        [10077, 10078, 10027, 10047].contains(error.apiErrorCode ?? 0)
    }

    /// The metric's label for an error: a short, closed set.
    static func reason(_ error: NATSError) -> String {
        switch error.code {
        case .timeout: "timeout"
        case .noResponders: "no_responders"
        case .closed: "closed"
        case .unavailable: "queue_full"
        case .disconnected: "disconnected"
        default: error.apiErrorCode == 10008 ? "jetstream_unavailable" : isFull(error) ? "log_full" : "other"
        }
    }

    static func interval(_ duration: Duration) -> TimeInterval {
        duration.inSeconds
    }

    static func seconds(_ duration: Duration, unit: Bool = true) -> String {
        String(format: unit ? "%.1f s" : "%.1f", interval(duration))
    }
}
