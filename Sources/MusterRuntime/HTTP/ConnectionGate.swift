import Metrics
import MusterNATS
import NIOCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Shared by every connection of one server: how many are open, and from each client address,
/// the limits, and where closes are counted.
final class ConnectionCount: Sendable {
    let open = Atomic<Int>(0)
    /// Open connections by client address (trusted proxies' are not counted here).
    private let byAddress = Mutex<[String: Int]>([:])
    let limits: ConnectionLimits
    let closed: @Sendable (String) -> Void

    init(limits: ConnectionLimits, closed: @escaping @Sendable (String) -> Void) {
        self.limits = limits
        self.closed = closed
    }

    /// Takes one of `address`'s share; false when it holds its share already (nothing taken).
    func take(_ address: String) -> Bool {
        byAddress.withLock { counts in
            let held = counts[address, default: 0]
            guard held < limits.perAddress else { return false }
            counts[address] = held + 1
            return true
        }
    }

    func release(_ address: String) {
        byAddress.withLock { counts in
            let held = counts[address, default: 0]
            if held <= 1 { counts[address] = nil } else { counts[address] = held - 1 }
        }
    }
}

/// First in every connection's pipeline, on the raw bytes, before anything that decodes HTTP (a
/// WebSocket-capable pipeline adds its HTTP handlers only once a first head was decoded, so a
/// guard behind the decoder never saw a client that sent nothing, or a head trickled a byte at
/// a time). It enforces:
/// - the bound on open connections: one past it is closed as it is accepted, and so is one past
///   its client address's share of the bound (`ConnectionLimits.perAddress`), unless the address
///   is a trusted proxy's;
/// - the head timeout: a head must be complete `headTimeout` after the connection opened, or
///   after the first byte that follows an answer, however slowly its bytes arrive;
/// - the keep-alive idle limit: after an answer, the next request must start within `idleTimeout`;
/// - the head's size: more than `RequestHeadScanner.maxFields` fields or `maxBytes` bytes is
///   answered `431` and the connection closed (the decoder would only drop it).
/// While a request is read and answered it sets no timer of its own: `ConnectionGuardHandler`
/// behind the decoder times the body and tells the gate of heads and answers, and so does the
/// fast path ahead of the decoder for the polls it answers. Every close is counted by reason
/// (`muster_http_connections_closed_total`).
final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum Phase: Equatable {
        /// Reading a head; closed at the deadline.
        case awaitingHead(NIODeadline)
        /// A request is being read (its body) or answered: the guard behind times it.
        case inRequest
        /// Answered; the next request must start by the deadline.
        case idle(NIODeadline)
        case closed
    }

    let count: ConnectionCount
    /// Why a WebSocket upgrade was refused, for `ConnectionGuardHandler` to answer in place of the
    /// framework's empty 400 (set by the upgrade's decision, on this connection's event loop).
    var refusedUpgrade: APIError?
    private(set) var phase: Phase = .inRequest
    private var scanner = RequestHeadScanner()
    private var counted = false
    /// The client address whose share this connection holds, if it holds one.
    private var sharing: String?
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    private var timerFiresAt: NIODeadline?

    init(count: ConnectionCount) { self.count = count }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        counted = true
        let open = count.open.wrappingAdd(1, ordering: .relaxed).newValue
        guard open <= count.limits.maxConnections else {
            refuse(context, reason: "over_limit")
            return
        }
        if let address = context.channel.remoteAddress?.ipAddress, !count.limits.exempt.contains(address) {
            guard count.take(address) else {
                refuse(context, reason: "over_address_limit")
                return
            }
            sharing = address
        }
        awaitHead(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        timerFiresAt = nil
        self.context = nil
        if counted {
            counted = false
            count.open.wrappingSubtract(1, ordering: .relaxed)
        }
        if let address = sharing {
            sharing = nil
            count.release(address)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .idle = phase { awaitHead(context) }
        guard case .awaitingHead = phase else {
            if phase != .closed { context.fireChannelRead(data) }
            return
        }
        let buffer = unwrapInboundIn(data)
        switch buffer.withUnsafeReadableBytes({ scanner.scan($0) }) {
        case .more:
            context.fireChannelRead(data)
        case .complete:
            phase = .inRequest
            context.fireChannelRead(data)
        case .tooLarge:
            refuseHead(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        phase = .closed
        context.fireChannelInactive()
    }

    /// The decoder produced a request head (a pipelined one the gate did not read as such
    /// included): no head timer while it is read and answered.
    func headArrived() {
        guard phase != .closed else { return }
        phase = .inRequest
    }

    /// Every request read so far is answered: the next one must start within the idle limit.
    func answered() {
        guard let context, phase == .inRequest else { return }
        phase = .idle(.now() + .nanoseconds(count.limits.idleTimeout.nanoseconds))
        schedule(context)
    }

    private func awaitHead(_ context: ChannelHandlerContext) {
        scanner = RequestHeadScanner()
        phase = .awaitingHead(.now() + .nanoseconds(count.limits.headTimeout.nanoseconds))
        schedule(context)
    }

    /// 431, then closed: the bytes read so far never reach the decoder.
    private func refuseHead(_ context: ChannelHandlerContext) {
        let message = "the request head is too large: at most \(RequestHeadScanner.maxFields) header fields and \(RequestHeadScanner.maxBytes) bytes"
        let body = "{\"error\":\"\(message)\",\"message\":\"\(message)\"}"
        var bytes = context.channel.allocator.buffer(capacity: 256 + body.utf8.count)
        bytes.writeString("HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\nConnection: close\r\n")
        bytes.writeString("Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
        close(context, reason: "head_too_large")
    }

    /// A connection over a bound, closed with a reset: a client that reconnects as soon as it is
    /// closed costs the server no FIN exchange and no TIME_WAIT socket each time.
    private func refuse(_ context: ChannelHandlerContext, reason: String) {
        if let socket = context.channel as? any SocketOptionProvider {
            _ = socket.setSoLinger(linger(l_onoff: 1, l_linger: 0))
        }
        close(context, reason: reason)
    }

    private func close(_ context: ChannelHandlerContext, reason: String) {
        guard phase != .closed else { return }
        phase = .closed
        count.closed(reason)
        context.close(promise: nil)
    }

    private var deadline: NIODeadline? {
        switch phase {
        case .awaitingHead(let due), .idle(let due): due
        case .inRequest, .closed: nil
        }
    }

    /// One timer at a time: a deadline later than the pending timer is found when it fires.
    private func schedule(_ context: ChannelHandlerContext) {
        guard let due = deadline else { return }
        if let firesAt = timerFiresAt, firesAt <= due { return }
        timer?.cancel()
        timerFiresAt = due
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            timer = nil
            timerFiresAt = nil
            guard let deadline else { return }
            if deadline <= .now() {
                if case .idle = phase { close(context, reason: "idle_timeout") } else { close(context, reason: "head_timeout") }
            } else {
                schedule(context)
            }
        }
    }
}

extension ConnectionGate {
    /// The handler factory for one server: one shared count, one gate per connection.
    static func factory(_ limits: ConnectionLimits) -> @Sendable () -> ConnectionGate {
        let count = ConnectionCount(limits: limits) { reason in
            Counter(label: "muster_http_connections_closed_total", dimensions: [("reason", reason)]).increment()
        }
        return { ConnectionGate(count: count) }
    }
}
