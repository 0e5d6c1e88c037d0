import Foundation
import HTTPTypes
import Metrics
import MusterNATS
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Time and number limits on HTTP connections, so slow or stalled clients cannot hold the server.
package struct ConnectionLimits: Sendable, Equatable {
    /// A request head (request line and headers) must be complete within this of the connection's
    /// start, or of its first byte after an answer, however slowly its bytes arrive.
    package var headTimeout: Duration = .seconds(10)
    /// From a request's head, its whole body must have arrived within this.
    package var bodyTimeout: Duration = .seconds(30)
    /// After a response, the next request must start within this (keep-alive idle).
    package var idleTimeout: Duration = .seconds(60)
    /// Connections open at once; one more is closed as soon as it is accepted.
    package var maxConnections = 4096
    /// Connections one client address may hold at once, so that one client cannot take every
    /// connection from the others (default: a quarter of `maxConnections`). Addresses of trusted
    /// proxies (`exempt`: the gateway, whose connections are many clients') are not held to it.
    package var maxPerAddress: Int?
    package var exempt = TrustedProxies()

    /// The share of the bound one address may hold.
    package var perAddress: Int { maxPerAddress ?? max(1, maxConnections / 4) }

    package init() {}
}

/// Times a request's body, behind the HTTP decoder, and tells the connection's `ConnectionGate`
/// (first in the pipeline, on raw bytes) of each request head and of the moment every request
/// read so far is answered, so the gate's head and idle limits start from the right moments. A
/// body not whole within `bodyTimeout` of its head closes the connection: a client that has not
/// sent a whole request has nothing to be answered.
///
/// Arming moves a deadline; the one scheduled timer checks it when it fires and, if the deadline
/// has moved on, sleeps again until it. A keep-alive client's requests then cost no timer each
/// (scheduling and cancelling two per request was 7 % of a 304's cost).
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limits: ConnectionLimits
    let closed: @Sendable (String) -> Void
    private var gate: ConnectionGate?
    private var timer: Scheduled<Void>?
    /// When the pending timer fires; it re-checks `deadline` then.
    private var timerFiresAt: NIODeadline?
    /// When the connection is closed unless the body is whole; nil otherwise.
    private var deadline: NIODeadline?
    /// The body of a refused upgrade's answer, written before its end.
    private var refusalBody: ByteBuffer?
    /// Requests read whole and not yet answered.
    private var answering = 0
    private var readingRequest = false

    init(limits: ConnectionLimits, closed: @escaping @Sendable (String) -> Void) {
        self.limits = limits
        self.closed = closed
    }

    func handlerAdded(context: ChannelHandlerContext) {
        gate = try? context.pipeline.syncOperations.handler(type: ConnectionGate.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        timerFiresAt = nil
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            gate?.headArrived()
            arm(context, limits.bodyTimeout)
        case .body:
            break
        case .end:
            readingRequest = false
            answering += 1
            deadline = nil // the pending timer finds nothing to do
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response) where response.status == .badRequest:
            // A refused WebSocket upgrade: the framework's empty 400 becomes the refusal's answer.
            if let refusal = gate?.refusedUpgrade {
                gate?.refusedUpgrade = nil
                let json: Data = (try? APIError.encoder.encode(APIError.Body(error: refusal.message, message: refusal.message))) ?? Data(#"{"error":"refused","message":"refused"}"#.utf8)
                let body = ByteBuffer(bytes: Array(json))
                var head = HTTPResponse(status: refusal.status, headerFields: refusal.headers)
                head.headerFields[.contentType] = "application/json; charset=utf-8"
                head.headerFields[.contentLength] = String(body.readableBytes)
                head.headerFields[.connection] = "close"
                refusalBody = body
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
        case .end:
            if let body = refusalBody {
                refusalBody = nil
                context.write(wrapOutboundOut(.body(body)), promise: nil)
            }
            answering = max(0, answering - 1)
            if answering == 0, !readingRequest { gate?.answered() }
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline = nil
        context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext, _ after: Duration) {
        let due = NIODeadline.now() + .nanoseconds(after.nanoseconds)
        deadline = due
        if let firesAt = timerFiresAt, firesAt <= due { return } // it fires first and finds the new deadline
        schedule(context, at: due)
    }

    private func schedule(_ context: ChannelHandlerContext, at due: NIODeadline) {
        timer?.cancel()
        timerFiresAt = due
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            timer = nil
            timerFiresAt = nil
            guard let deadline else { return }
            if deadline <= .now() {
                closed("body_timeout")
                context.close(promise: nil)
            } else {
                schedule(context, at: deadline)
            }
        }
    }
}

extension ConnectionGuardHandler {
    /// The handler factory for one server: one guard per connection.
    static func factory(_ limits: ConnectionLimits) -> @Sendable () -> ConnectionGuardHandler {
        { ConnectionGuardHandler(limits: limits) { reason in
            Counter(label: "muster_http_connections_closed_total", dimensions: [("reason", reason)]).increment()
        } }
    }
}
