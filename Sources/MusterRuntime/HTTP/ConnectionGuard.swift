import HTTPTypes
import Metrics
import MusterNATS
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Time and number limits on HTTP connections, so slow or stalled clients cannot hold the server.
public struct ConnectionLimits: Sendable, Equatable {
    /// From the connection's start, the first request head (request line and headers) must be complete within this.
    public var headTimeout: Duration = .seconds(10)
    /// From a request's head, its whole body must have arrived within this.
    public var bodyTimeout: Duration = .seconds(30)
    /// After a response, the next request head must be complete within this (keep-alive idle).
    public var idleTimeout: Duration = .seconds(60)
    /// Connections open at once; one more is closed as soon as it is accepted.
    public var maxConnections = 4096

    public init() {}
}

/// Shared by every connection of one server: how many are open.
final class ConnectionCount: Sendable {
    let open = Atomic<Int>(0)
    let limits: ConnectionLimits
    let closed: @Sendable (String) -> Void

    init(limits: ConnectionLimits, closed: @escaping @Sendable (String) -> Void) {
        self.limits = limits
        self.closed = closed
    }
}

/// Enforces `ConnectionLimits` on one connection, in the channel pipeline after HTTP decoding.
///
/// A timer always runs while the server waits for the client: for a request head (first request:
/// `headTimeout`, later ones: `idleTimeout`) or for the rest of a request (`bodyTimeout`). None
/// runs while the server itself is answering. When it fires, the connection is closed: a client
/// that has not sent a whole request has nothing to be answered.
///
/// Arming moves a deadline; the one scheduled timer checks it when it fires and, if the deadline
/// has moved on, sleeps again until it. A keep-alive client's requests then cost no timer each
/// (scheduling and cancelling two per request was 7 % of a 304's cost).
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let count: ConnectionCount
    private var counted = false
    private var timer: Scheduled<Void>?
    /// When the pending timer fires; it re-checks `deadline` then.
    private var timerFiresAt: NIODeadline?
    /// When the connection is closed unless the client gets on; nil while the server answers.
    private var deadline: NIODeadline?
    private var reason = ""
    /// Requests read whole and not yet answered.
    private var answering = 0
    private var readingRequest = false

    init(count: ConnectionCount) { self.count = count }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = true
        let open = count.open.wrappingAdd(1, ordering: .relaxed).newValue
        guard open <= count.limits.maxConnections else {
            count.closed("over_limit")
            context.close(promise: nil)
            return
        }
        arm(context, count.limits.headTimeout, reason: "head_timeout")
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        timerFiresAt = nil
        deadline = nil
        if counted {
            counted = false
            count.open.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            arm(context, count.limits.bodyTimeout, reason: "body_timeout")
        case .body:
            break
        case .end:
            readingRequest = false
            answering += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answering = max(0, answering - 1)
            if answering == 0, !readingRequest { arm(context, count.limits.idleTimeout, reason: "idle_timeout") }
        }
        context.write(data, promise: promise)
    }

    /// A request the listener ahead of the decoder read and answered whole (this handler sees no
    /// HTTP parts for it): the client is active, and the next head is due within the idle timeout.
    /// A direct call: sent down the pipeline as an event it cost 2.5 % of a 304.
    func answeredAhead(context: ChannelHandlerContext) {
        if answering == 0, !readingRequest { arm(context, count.limits.idleTimeout, reason: "idle_timeout") }
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext, _ after: Duration, reason: String) {
        let due = NIODeadline.now() + .nanoseconds(after.nanoseconds)
        deadline = due
        self.reason = reason
        if let firesAt = timerFiresAt, firesAt <= due { return } // it fires first and finds the new deadline
        schedule(context, at: due)
    }

    private func disarm() {
        deadline = nil // the pending timer finds nothing to do
    }

    private func schedule(_ context: ChannelHandlerContext, at due: NIODeadline) {
        timer?.cancel()
        timerFiresAt = due
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            timer = nil
            timerFiresAt = nil
            guard let deadline else { return }
            if deadline <= .now() {
                count.closed(reason)
                context.close(promise: nil)
            } else {
                schedule(context, at: deadline)
            }
        }
    }
}

extension ConnectionGuardHandler {
    /// The handler factory for one server: one shared count, one handler per connection.
    static func factory(_ limits: ConnectionLimits) -> @Sendable () -> ConnectionGuardHandler {
        let count = ConnectionCount(limits: limits) { reason in
            Counter(label: "muster_http_connections_closed_total", dimensions: [("reason", reason)]).increment()
        }
        return { ConnectionGuardHandler(count: count) }
    }
}
