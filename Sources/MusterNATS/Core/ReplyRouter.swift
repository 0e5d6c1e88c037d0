import CNats
import Foundation
import Synchronization

/// Routes replies to requests over one wildcard inbox subscription (`_INBOX.<id>.*`), so a
/// request costs a publish and a table entry rather than a subscription of its own. JetStream
/// publish acks use the same path, which is what lets many publishes be in flight at once.
final class ReplyRouter: Sendable {
    enum Waiter: Sendable {
        /// A request waiting for its reply, and its deadline (cancelled once the reply comes).
        case continuation(CheckedContinuation<NATSMessage, any Error>, deadline: Timeouts.Token?)
        case handler(@Sendable (_ token: UInt64, Result<NATSMessage, NATSError>) -> Void)
        /// Every reply of a batch, by the message's index; nil: every reply not yet given.
        case batch(@Sendable (_ index: Int?, Result<NATSMessage, NATSError>) -> Void)
    }

    struct State: Sendable {
        var waiters: [UInt64: Waiter] = [:]
        var nextToken: UInt64 = 0
        var closed = false
    }

    /// Retained for libnats; released in the subscription's on-complete callback.
    final class Box: Sendable {
        let state = Mutex(State())
        let prefix: String
        let timeouts: Timeouts
        init(prefix: String, timeouts: Timeouts) {
            self.prefix = prefix
            self.timeouts = timeouts
        }

        /// Hands a reply to its waiter, which then owns it; a reply nobody waits for is destroyed.
        func deliver(_ msg: OpaquePointer) {
            let address = Self.address(ofSubject: natsMsg_GetSubject(msg))
            switch address {
            case (let token?, nil):
                switch state.withLock({ $0.waiters.removeValue(forKey: token) }) {
                case .continuation(let continuation, let deadline)?:
                    if let deadline { timeouts.cancel(deadline) }
                    continuation.resume(returning: NATSMessage(owning: msg))
                case .handler(let handler)?: handler(token, .success(NATSMessage(owning: msg)))
                default: muster_natsMsg_DestroyNow(msg) // a reply after its request timed out
                }
            case (let token?, let index?):
                // A batch's entry stays until its owner forgets it: it waits for every reply.
                if case .batch(let handler)? = state.withLock({ $0.waiters[token] }) {
                    handler(index, .success(NATSMessage(owning: msg)))
                } else {
                    muster_natsMsg_DestroyNow(msg)
                }
            default:
                muster_natsMsg_DestroyNow(msg)
            }
        }

        /// The subject's last token read in place (a reply arrives per publish): a request's token
        /// (`<token>`), or a batch's and the message's index in it (`<token>_<index>`).
        static func address(ofSubject subject: UnsafePointer<CChar>?) -> (token: UInt64?, index: Int?) {
            guard let subject else { return (nil, nil) }
            var number: UInt64 = 0
            var digits = 0
            var batch: UInt64?
            var cursor = subject
            while cursor.pointee != 0 {
                let byte = UInt8(bitPattern: cursor.pointee)
                if byte == UInt8(ascii: ".") {
                    (number, digits, batch) = (0, 0, nil)
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 19 {
                    number = number &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                    digits += 1
                } else if byte == UInt8(ascii: "_"), batch == nil, digits > 0, digits <= 19 {
                    (batch, number, digits) = (number, 0, 0)
                } else {
                    digits = 20 // not a number: no token unless another dot follows
                }
                cursor += 1
            }
            guard digits > 0, digits <= 19 else { return (nil, nil) }
            guard let batch else { return (number, nil) }
            return number < UInt64(Int.max) ? (batch, Int(number)) : (nil, nil)
        }

        /// A request's token, nil for anything else (a batch reply included).
        static func token(ofSubject subject: UnsafePointer<CChar>?) -> UInt64? {
            let address = address(ofSubject: subject)
            return address.index == nil ? address.token : nil
        }
    }

    let box: Box
    let subscription: NATSSubscription.Handle

    init(connection: NATSConnection.Handle, timeouts: Timeouts) throws {
        var inbox: UnsafeMutablePointer<CChar>?
        try check(natsInbox_Create(&inbox), "create inbox")
        let prefix = String(cString: inbox!)
        natsInbox_Destroy(inbox)
        let box = Box(prefix: prefix, timeouts: timeouts)
        let retained = Unmanaged.passRetained(box).toOpaque()
        var sub: OpaquePointer?
        let status = natsConnection_Subscribe(&sub, connection.pointer, "\(prefix).*", { _, _, msg, closure in
            guard let msg else { return }
            let box = Unmanaged<Box>.fromOpaque(closure!).takeUnretainedValue()
            box.deliver(msg)
        }, retained)
        guard status == NATS_OK, let sub else {
            Unmanaged<Box>.fromOpaque(retained).release()
            throw NATSError.status(status, "subscribe to reply inbox")
        }
        natsSubscription_SetPendingLimits(sub, -1, -1) // replies are bounded by what we have in flight
        natsSubscription_SetOnCompleteCB(sub, { closure in
            Unmanaged<Box>.fromOpaque(closure!).release()
        }, retained)
        self.box = box
        self.subscription = NATSSubscription.Handle(sub)
    }

    private func reserve(_ waiter: Waiter?) throws -> (token: UInt64, subject: String) {
        let token: UInt64? = box.state.withLock { state in
            if state.closed { return nil }
            state.nextToken &+= 1
            if let waiter { state.waiters[state.nextToken] = waiter }
            return state.nextToken
        }
        guard let token else { throw NATSError(.closed, "connection is closing") }
        return (token, "\(box.prefix).\(token)")
    }

    private func cancel(_ token: UInt64) -> Waiter? {
        box.state.withLock { $0.waiters.removeValue(forKey: token) }
    }

    func newInbox() -> String {
        let token = box.state.withLock { state -> UInt64 in state.nextToken &+= 1; return state.nextToken }
        return "\(box.prefix)x.\(token)" // never matches `prefix.*`, so never routed here
    }

    /// Registers a waiter, calls `send` with the reply subject and its token, and waits for the
    /// reply, at most `timeout` whatever happens to the request on its way (`fail` ends it sooner;
    /// so does cancelling the calling task, with `CancellationError`).
    func request(timeout: Duration, send: (_ replyTo: String, _ token: UInt64) throws -> Void) async throws -> NATSMessage {
        let (token, replyTo) = try reserve(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Registered before the request leaves, so a fast reply always finds its waiter;
                // its deadline is set after, and dropped if the wait ended in between.
                box.state.withLock { $0.waiters[token] = .continuation(continuation, deadline: nil) }
                let deadline = box.timeouts.schedule(after: timeout) { [self] in
                    end(token, throwing: NATSError(.timeout, "no reply within \(timeout)"))
                }
                let waiting = box.state.withLock { state -> Bool in
                    guard case .continuation(let continuation, nil)? = state.waiters[token] else { return false }
                    state.waiters[token] = .continuation(continuation, deadline: deadline)
                    return true
                }
                if !waiting { box.timeouts.cancel(deadline) }
                do {
                    try send(replyTo, token)
                } catch {
                    end(token, throwing: error)
                }
                // Cancelled before the waiter was registered: the handler found nothing to end.
                if Task.isCancelled { end(token, throwing: CancellationError()) }
            }
        } onCancel: {
            end(token, throwing: CancellationError())
        }
    }

    /// Ends a request still waiting with `error`; nothing if it has ended.
    private func end(_ token: UInt64, throwing error: any Error) {
        guard case .continuation(let continuation, let deadline)? = box.state.withLock({ state -> Waiter? in
            guard case .continuation? = state.waiters[token] else { return nil }
            return state.waiters.removeValue(forKey: token)
        }) else { return }
        if let deadline { box.timeouts.cancel(deadline) }
        continuation.resume(throwing: error)
    }

    /// Registers a callback for one reply and returns the subject to use as the message's reply-to;
    /// the callback is given the reply and the token this returned.
    func expectReply(_ handler: @escaping @Sendable (_ token: UInt64, Result<NATSMessage, NATSError>) -> Void) throws -> (token: UInt64, subject: String) {
        try reserve(.handler(handler))
    }

    /// Registers one callback for the replies to a batch of messages and returns the prefix of
    /// their reply subjects (each message's index follows it) and the token to `forget` once done.
    func expectReplies(_ handler: @escaping @Sendable (_ index: Int?, Result<NATSMessage, NATSError>) -> Void) throws -> (token: UInt64, prefix: String) {
        let (token, subject) = try reserve(.batch(handler))
        return (token, subject + "_")
    }

    /// Ends one message of a batch with an error (it could not be sent); the batch waits on.
    func fail(batch token: UInt64, index: Int, _ error: NATSError) {
        if case .batch(let handler)? = box.state.withLock({ $0.waiters[token] }) { handler(index, .failure(error)) }
    }

    /// Forgets a callback (say, its publish failed or timed out); true if it had not fired yet.
    func forget(_ token: UInt64) -> Bool { cancel(token) != nil }

    /// Ends one request with an error (its message could not be sent); nothing if it has ended.
    func fail(_ token: UInt64, _ error: NATSError) {
        switch cancel(token) {
        case .continuation(let continuation, let deadline)?:
            if let deadline { box.timeouts.cancel(deadline) }
            continuation.resume(throwing: error)
        case .handler(let handler)?: handler(token, .failure(error))
        case .batch(let handler)?: handler(nil, .failure(error))
        case nil: break
        }
    }

    /// Fails every request waiting now (the connection to the server was lost: their replies will
    /// not come), so that callers answer at once instead of at their deadline. Requests made from
    /// now on wait as usual: libnats sends them once it has reconnected.
    func failWaiting(_ error: NATSError) {
        let waiting = box.state.withLock { state -> [(UInt64, Waiter)] in
            defer { state.waiters.removeAll() }
            return Array(state.waiters)
        }
        for (token, waiter) in waiting {
            switch waiter {
            case .continuation(let continuation, let deadline):
                if let deadline { box.timeouts.cancel(deadline) }
                continuation.resume(throwing: error)
            case .handler(let handler): handler(token, .failure(error))
            case .batch(let handler): handler(nil, .failure(error))
            }
        }
    }

    /// Fails every waiter: the connection is going away.
    func close() {
        let waiters = box.state.withLock { state -> [Waiter] in
            state.closed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            switch waiter {
            case .continuation(let c, let deadline):
                if let deadline { box.timeouts.cancel(deadline) }
                c.resume(throwing: NATSError(.closed, "connection closed"))
            case .batch(let handler): handler(nil, .failure(NATSError(.closed, "connection closed")))
            case .handler: break // its publisher's own deadline ends it
            }
        }
    }
}
