import CNats
package import Foundation
package import Logging
import ServiceLifecycle
import Synchronization

/// One connection to NATS over libnats.
///
/// libnats reconnects by itself; this type surfaces its status and errors, owns the threads for
/// blocking calls, routes replies for request/reply and JetStream acks, and, run as a `Service`,
/// drains on graceful shutdown so that what was published reaches the server.
package final class NATSConnection: Sendable {
    /// The libnats handle. `natsConnection` is documented as safe to use from any thread.
    final class Handle: @unchecked Sendable {
        // @unchecked: the pointer is immutable and libnats serialises access to the connection itself.
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { natsConnection_Destroy(pointer) }
    }

    let handle: Handle
    let pool: BlockingPool
    let events: ConnectionEvents
    let replies: ReplyRouter
    /// Every publish goes through here, never straight to libnats from the caller's thread.
    let outgoing: PublishQueue
    package let configuration: NATSConfiguration
    package let logger: Logger

    private init(handle: Handle, pool: BlockingPool, events: ConnectionEvents, replies: ReplyRouter,
                 configuration: NATSConfiguration, logger: Logger) {
        self.handle = handle
        self.pool = pool
        self.events = events
        self.replies = replies
        self.outgoing = PublishQueue(connection: handle, maxBytes: configuration.reconnectBufferBytes)
        // What was sent to the lost server gets no reply: its callers hear so now, not at their deadline.
        events.onDisconnect.withLock { $0 = { [replies] in
            replies.failWaiting(NATSError(.disconnected, "the connection to NATS was lost before the reply came"))
        } }
        self.configuration = configuration
        self.logger = logger
    }

    /// Connects, failing with a clear error when the server cannot be reached in `connectTimeout`.
    package static func connect(_ configuration: NATSConfiguration, logger: Logger = Logger(label: "muster.nats")) async throws -> NATSConnection {
        var logger = logger
        logger[metadataKey: "nats"] = "\(configuration.redactedURL)"
        let pool = BlockingPool()
        let events = ConnectionEvents(logger: logger)
        let handle: Handle
        do {
            handle = try await pool.run { () throws -> Handle in
                Handle(try openConnection(configuration, events: Unmanaged.passRetained(events).toOpaque()))
            }
        } catch {
            // libnats never calls the closed callback of a connection that never opened, so the
            // events box stays retained: a few bytes per failed attempt, never a dangling pointer.
            await pool.shutdown()
            throw error
        }
        let timeouts = Timeouts()
        let replies = try await pool.run { try ReplyRouter(connection: handle, timeouts: timeouts) }
        logger.info("NATS connected")
        return NATSConnection(handle: handle, pool: pool, events: events, replies: replies,
                              configuration: configuration, logger: logger)
    }

    /// As libnats's callbacks last reported it; never waits for the connection's lock.
    package var status: NATSConnectionStatus { events.status }
    package var isConnected: Bool { status == .connected }
    package var lastAsyncError: String? { events.facts.withLock { $0.lastError } }
    package var reconnectCount: Int { events.facts.withLock { $0.reconnects } }
    /// When the connection to the server it is on now was made (at connect, or the last reconnect).
    package var connectedAt: ContinuousClock.Instant { events.facts.withLock { $0.connectedAt } }

    /// Publishes one message. It is queued for the connection's publishing thread, which writes it
    /// to the socket (libnats's send-asap); use `flush` or a JetStream publish when the server must
    /// have it. Throws at once only when the queue is full or the connection closing.
    package func publish(_ subject: String, headers: NATSHeaders = .init(), payload: Data = Data(), replyTo: String? = nil) throws {
        try outgoing.enqueue(OutgoingMessage(subject: subject, headers: headers, payload: payload), replyTo: replyTo,
                             onFailure: { [events] error in events.publishFailed(error) })
    }

    /// Publishes a JetStream message, its options set as headers; a failure to send it ends the
    /// request waiting on `token`.
    func publish(_ message: OutgoingMessage, replyTo: String, token: UInt64) throws {
        try outgoing.enqueue(message, replyTo: replyTo, onFailure: { [replies] error in replies.fail(token, error) })
    }

    /// Publishes JetStream messages answered on `replyPrefix` + index (`ReplyRouter.expectReplies`);
    /// a failure to send one ends that one's reply in the batch waiting on `token`.
    func publish(_ messages: ArraySlice<OutgoingMessage>, replyPrefix: String, token: UInt64) throws {
        try outgoing.enqueue(messages, replyPrefix: replyPrefix,
                             onFailure: { [replies] index, error in replies.fail(batch: token, index: index, error) })
    }

    /// Waits until the server has processed everything published so far.
    package func flush(timeout: Duration = .seconds(5)) async throws {
        let handle = self.handle
        let outgoing = self.outgoing
        try await withDeadline(timeout, "flush") {
            await outgoing.barrier()
            try await self.pool.run { () throws in
                try check(natsConnection_FlushTimeout(handle.pointer, timeout.milliseconds), "flush")
            }
        }
    }

    /// Sends a request and waits for the first reply.
    package func request(_ subject: String, headers: NATSHeaders = .init(), payload: Data = Data(),
                        timeout: Duration = .seconds(5)) async throws -> NATSMessage {
        let reply = try await replies.request(timeout: timeout) { replyTo, token in
            try outgoing.enqueue(OutgoingMessage(subject: subject, headers: headers, payload: payload), replyTo: replyTo,
                                 onFailure: { [replies] error in replies.fail(token, error) })
        }
        if reply.status == 503 { throw NATSError(.noResponders, "no responders on \(subject)") }
        return reply
    }

    /// Subscribes; messages wait in a buffer of `capacity` before back-pressure reaches libnats.
    /// On the connection's own threads: libnats writes the subscription under the connection's
    /// lock, which a publish to a stalled server can hold for the write deadline.
    package func subscribe(_ subject: String, queue: String? = nil, capacity: Int = 1024) async throws -> NATSSubscription {
        let (handle, pool) = (self.handle, self.pool)
        let timeouts = self.timeouts
        return try await pool.run {
            try NATSSubscription(connection: handle, pool: pool, timeouts: timeouts, subject: subject, queue: queue, capacity: capacity)
        }
    }

    /// A unique inbox subject on this connection.
    package func newInbox() -> String { replies.newInbox() }

    /// The deadlines of this connection's waits (replies, pulled messages), and of any other wait
    /// that usually ends long before its limit: one timer for them all (`Timeouts`).
    package var timeouts: Timeouts { replies.box.timeouts }

    /// Drains: subscriptions stop taking messages, everything buffered is sent, then it closes.
    /// Away from any server (reconnecting) there is nothing to drain to: it waits for a server
    /// within the drain timeout, and closes without draining if none comes back.
    package func drain() async {
        let handle = self.handle
        let timeout = configuration.drainTimeout
        let deadline = ContinuousClock.now + timeout
        events.markClosing()
        replies.close()
        do {
            try await withDeadline(timeout, "send what was queued") { await self.outgoing.barrier() }
            // libnats's own status (on the pool: it takes the connection's lock); ours says draining now.
            while await libnatsStatus() == .reconnecting && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let status = await libnatsStatus()
            if status == .connected {
                try await pool.run { () throws in
                    let status = natsConnection_DrainTimeout(handle.pointer, timeout.milliseconds)
                    if status != NATS_OK && status != NATS_CONNECTION_CLOSED { throw NATSError.status(status, "drain") }
                }
                // Draining is asynchronous in libnats: wait, within the bound, for it to close.
                while self.status != .closed && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
            } else if status != .closed {
                logger.notice("NATS closing without draining: no server reachable", metadata: ["status": "\(status)"])
            }
        } catch {
            logger.warning("NATS drain did not finish cleanly", metadata: ["error": "\(error)"])
        }
        await finishClosing()
    }

    private func libnatsStatus() async -> NATSConnectionStatus {
        let handle = self.handle
        return (try? await pool.run { NATSConnectionStatus(natsConnection_Status(handle.pointer)) }) ?? .closed
    }

    /// Closes at once, dropping what is buffered.
    package func close() async {
        events.markClosing()
        replies.close()
        await finishClosing()
    }

    private func finishClosing() async {
        let handle = self.handle
        // natsConnection_Close flushes and joins libnats's threads: not on the caller's thread.
        _ = try? await pool.run { natsConnection_Close(handle.pointer) }
        events.closed() // closed now, whenever libnats's callback thread gets to say so
        await outgoing.close()
        timeouts.close() // whoever still waits on a deadline hears now
        await pool.shutdown()
    }
}

extension NATSConnection: Service {
    /// Holds the connection open until graceful shutdown, then drains it.
    package func run() async throws {
        try? await gracefulShutdown()
        logger.info("NATS draining")
        await drain()
    }
}

/// libnats opens itself on first use with locks that spin 2,000 times before they sleep. A waiter
/// spinning here burns the core the lock's holder may need (two cores, one hashing a password), so
/// the library is opened once, before any connection, with locks that sleep at once.
private let libraryOpened: natsStatus = nats_Open(0)

/// Creates the libnats options and connection. Runs on the blocking pool.
private func openConnection(_ configuration: NATSConfiguration, events: UnsafeMutableRawPointer) throws -> OpaquePointer {
    try check(libraryOpened, "open the library")
    var options: OpaquePointer?
    try check(natsOptions_Create(&options), "create options")
    guard let options else { throw NATSError(.libnats, "natsOptions_Create returned nothing") }
    defer { natsOptions_Destroy(options) }
    // A list goes to natsOptions_SetServers (SetURL takes one URL, and a list there loses the
    // credentials of all but one server). libnats tries each until one answers.
    let servers = configuration.servers
    guard !servers.isEmpty else { throw NATSError(.libnats, "no NATS server URL given") }
    var cStrings = servers.map { strdup($0) }
    defer { cStrings.forEach { free($0) } }
    let status = cStrings.withUnsafeMutableBufferPointer { buffer -> natsStatus in
        guard let base = buffer.baseAddress else { return NATS_INVALID_ARG }
        return base.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
            natsOptions_SetServers(options, $0, Int32(buffer.count))
        }
    }
    try check(status, "set servers \(configuration.redactedURL)")
    try check(natsOptions_SetName(options, configuration.name), "set name")
    try check(natsOptions_SetTimeout(options, configuration.connectTimeout.milliseconds), "set timeout")
    try check(natsOptions_SetMaxReconnect(options, Int32(configuration.maxReconnects)), "set max reconnect")
    try check(natsOptions_SetReconnectWait(options, configuration.reconnectWait.milliseconds), "set reconnect wait")
    try check(natsOptions_SetReconnectBufSize(options, Int32(configuration.reconnectBufferBytes)), "set reconnect buffer")
    try check(natsOptions_SetPingInterval(options, configuration.pingInterval.milliseconds), "set ping interval")
    try check(natsOptions_SetMaxPingsOut(options, Int32(configuration.maxPingsOut)), "set max pings out")
    try check(natsOptions_SetWriteDeadline(options, configuration.writeDeadline.milliseconds), "set write deadline")
    // Written by the publishing thread (`PublishQueue`'s, never a loop's), not handed to libnats's
    // flusher thread: almost everything sent is waited for (an append's acknowledgement, a request's
    // reply, a pull's messages), and the flusher was one more thread woken on the way, four a
    // sign-in. Measured in interleaved rounds: a sign-in's work outside its hash a tenth less, the
    // hashing threads preempted less, appends as fast (bench/offleash.sh, bench/run.sh).
    try check(natsOptions_SetSendAsap(options, true), "send as soon as published")
    if let creds = configuration.credentialsFile {
        try check(natsOptions_SetUserCredentialsFromFiles(options, creds, nil), "load credentials \(creds)")
    }
    try check(natsOptions_SetDisconnectedCB(options, { _, closure in
        Unmanaged<ConnectionEvents>.fromOpaque(closure!).takeUnretainedValue().disconnected()
    }, events), "set disconnected callback")
    try check(natsOptions_SetReconnectedCB(options, { nc, closure in
        var buffer = [CChar](repeating: 0, count: 256)
        _ = natsConnection_GetConnectedUrl(nc, &buffer, buffer.count)
        let url = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        Unmanaged<ConnectionEvents>.fromOpaque(closure!).takeUnretainedValue().reconnected(url: url)
    }, events), "set reconnected callback")
    try check(natsOptions_SetClosedCB(options, { _, closure in
        // The last callback libnats makes for this connection: give back the retain taken at connect.
        let box = Unmanaged<ConnectionEvents>.fromOpaque(closure!)
        box.takeUnretainedValue().closed()
        box.release()
    }, events), "set closed callback")
    try check(natsOptions_SetErrorHandler(options, { _, sub, status, closure in
        let subject = sub.flatMap { natsSubscription_GetSubject($0) }.map { String(cString: $0) }
        let text = String(cString: natsStatus_GetText(status))
        Unmanaged<ConnectionEvents>.fromOpaque(closure!).takeUnretainedValue().asyncError(text, subject: subject)
    }, events), "set error handler")
    var connection: OpaquePointer?
    try check(natsConnection_Connect(&connection, options), "connect to \(configuration.redactedURL)")
    guard let connection else { throw NATSError(.libnats, "natsConnection_Connect returned nothing") }
    return connection
}
