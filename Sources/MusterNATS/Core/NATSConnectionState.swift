import CNats
import Logging
import Synchronization

/// What the connection is doing now, as `/ready` and the logs report it.
package enum NATSConnectionStatus: String, Sendable {
    case connecting, connected, reconnecting, disconnected, draining, closed

    init(_ status: natsConnStatus) {
        switch status {
        case NATS_CONN_STATUS_CONNECTED: self = .connected
        case NATS_CONN_STATUS_CONNECTING: self = .connecting
        case NATS_CONN_STATUS_RECONNECTING: self = .reconnecting
        case NATS_CONN_STATUS_DRAINING_SUBS, NATS_CONN_STATUS_DRAINING_PUBS: self = .draining
        case NATS_CONN_STATUS_CLOSED: self = .closed
        default: self = .disconnected
        }
    }
}

/// Receives libnats's connection callbacks (their own thread) and keeps the facts they carry.
/// Retained for libnats when the connection is created, released by the closed callback.
final class ConnectionEvents: Sendable {
    struct Facts: Sendable {
        var reconnects = 0
        var disconnects = 0
        var lastError: String?
        /// Fire-and-forget publishes (acks, replies) that never left: counted, not each logged.
        var failedPublishes = 0
        var closed = false
        /// Set when we drain or close on purpose: the disconnect that follows is not news.
        var closing = false
        /// What the callbacks last said. Kept here because `natsConnection_Status` takes the
        /// connection's lock, which a publish holds while it waits on a stalled socket: asked from
        /// `/ready` or a fold, it would stall the thread asking.
        var status = NATSConnectionStatus.connected
        /// When the connection to the current server was made.
        var connectedAt = ContinuousClock.now
    }

    let logger: Logger
    let facts = Mutex(Facts())
    /// Called on libnats's thread when the connection to a server is lost (not when we close it).
    let onDisconnect = Mutex<(@Sendable () -> Void)?>(nil)

    init(logger: Logger) { self.logger = logger }

    func disconnected() {
        let closing = facts.withLock { facts in
            facts.disconnects += 1
            if !facts.closed { facts.status = facts.closing ? .draining : .reconnecting }
            return facts.closing
        }
        if !closing {
            logger.warning("NATS disconnected; reconnecting")
            onDisconnect.withLock { $0 }?()
        }
    }

    func markClosing() {
        facts.withLock { facts in
            facts.closing = true
            if facts.status == .connected { facts.status = .draining }
        }
    }

    var status: NATSConnectionStatus { facts.withLock { $0.status } }

    func reconnected(url: String) {
        facts.withLock { facts in
            facts.reconnects += 1
            facts.connectedAt = .now
            if !facts.closing { facts.status = .connected }
        }
        logger.info("NATS reconnected", metadata: ["url": "\(NATSConfiguration.redacted(url))"])
    }

    /// Called by libnats's closed callback and by `finishClosing` once `natsConnection_Close` has
    /// returned (libnats posts its callback to a thread of its own, which may run later): logged once.
    func closed() {
        let first = facts.withLock { facts in
            defer {
                facts.closed = true
                facts.status = .closed
            }
            return !facts.closed
        }
        if first { logger.info("NATS connection closed") }
    }

    func publishFailed(_ error: NATSError) {
        let first = facts.withLock { facts in
            facts.failedPublishes += 1
            facts.lastError = error.message
            return facts.failedPublishes == 1
        }
        if first { logger.warning("NATS publish failed (later failures are counted, not logged)", metadata: ["error": "\(error)"]) }
    }

    func asyncError(_ text: String, subject: String?) {
        facts.withLock { $0.lastError = text }
        logger.error("NATS asynchronous error", metadata: ["error": "\(text)", "subject": "\(subject ?? "-")"])
    }
}
