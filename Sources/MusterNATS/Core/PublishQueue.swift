import CNats
import Foundation
import NIOPosix
import Synchronization

/// The one thread that hands messages to libnats.
///
/// `natsConnection_PublishMsg` writes to the socket itself (at once: connections send as soon as
/// published), and towards a server that stopped reading that write waits (up to the write deadline). Run on the
/// caller's thread, the wait would stall a NIO event loop or the cooperative pool: every request
/// of the process, `/health` included. So callers only enqueue (a lock and an append) and this
/// thread publishes, a burst at a time, in the order they were enqueued. What a publish cannot
/// do reaches its `onFailure`; a caller waiting for a reply also has its own deadline.
final class PublishQueue: Sendable {
    typealias Failure = @Sendable (NATSError) -> Void

    enum Item: Sendable {
        case message(OutgoingMessage, replyTo: String?, onFailure: Failure?)
        /// Many messages, each answered on `replyPrefix` + its index (one queue entry and one
        /// failure callback for the lot; the reply subjects are spelled on the publishing thread).
        case batch(ArraySlice<OutgoingMessage>, replyPrefix: String, onFailure: @Sendable (_ index: Int, NATSError) -> Void)
        /// Resumed once everything enqueued before it has been handed to libnats.
        case barrier(CheckedContinuation<Void, Never>)

        var bytes: Int {
            switch self {
            case .message(let message, _, _): Self.bytes(of: message)
            case .batch(let messages, _, _): messages.reduce(0) { $0 + Self.bytes(of: $1) }
            case .barrier: 0
            }
        }

        static func bytes(of message: OutgoingMessage) -> Int { message.payload.count + message.subject.utf8.count + 64 }
    }

    struct State: Sendable {
        var items: [Item] = []
        /// Bytes enqueued and not yet handed to libnats (those of the burst under way included).
        var bytes = 0
        var scheduled = false
        var closed = false
    }

    private let state = Mutex(State())
    private let thread: NIOThreadPool
    private let connection: NATSConnection.Handle
    /// Beyond this, publishes are refused at once rather than held in memory without end.
    let maxBytes: Int

    init(connection: NATSConnection.Handle, maxBytes: Int) {
        self.connection = connection
        self.maxBytes = maxBytes
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    /// Queues one message; throws at once when the queue is full or closed.
    func enqueue(_ message: OutgoingMessage, replyTo: String?, onFailure: Failure?) throws {
        try enqueue(.message(message, replyTo: replyTo, onFailure: onFailure))
    }

    /// Queues messages replied to on `replyPrefix` followed by each one's index in the slice;
    /// all or none (throws at once when the queue has no room for them all, or is closed).
    func enqueue(_ messages: ArraySlice<OutgoingMessage>, replyPrefix: String,
                 onFailure: @escaping @Sendable (_ index: Int, NATSError) -> Void) throws {
        try enqueue(.batch(messages, replyPrefix: replyPrefix, onFailure: onFailure))
    }

    private func enqueue(_ item: Item) throws {
        let size = item.bytes
        let outcome = state.withLock { state -> Result<Bool, NATSError> in
            if state.closed { return .failure(NATSError(.closed, "connection is closing")) }
            if state.bytes + size > maxBytes, state.bytes > 0 {
                return .failure(NATSError(.unavailable, "\(state.bytes) bytes wait to be sent to NATS; publish refused"))
            }
            state.items.append(item)
            state.bytes += size
            defer { state.scheduled = true }
            return .success(!state.scheduled)
        }
        if try outcome.get() { thread.submit { [self] _ in drain() } }
    }

    /// Returns once everything enqueued before the call has been handed to libnats (or failed).
    func barrier() async {
        await withCheckedContinuation { continuation in
            let schedule = state.withLock { state -> Bool? in
                if state.closed { return nil }
                state.items.append(.barrier(continuation))
                defer { state.scheduled = true }
                return !state.scheduled
            }
            switch schedule {
            case nil: continuation.resume()
            case true?: thread.submit { [self] _ in drain() }
            case false?: break
            }
        }
    }

    /// Refuses what comes next, fails what waits, and stops the thread once its burst ends.
    func close() async {
        let waiting = state.withLock { state -> [Item] in
            state.closed = true
            defer { state.items.removeAll() }
            return state.items
        }
        fail(waiting, NATSError(.closed, "connection closed before the message was sent"))
        try? await thread.shutdownGracefully()
    }

    /// Publishes bursts until the queue is empty. Runs on the queue's own thread only.
    private func drain() {
        while true {
            let burst = state.withLock { state -> [Item] in
                if state.items.isEmpty || state.closed {
                    state.scheduled = false
                    return []
                }
                var taken: [Item] = []
                swap(&taken, &state.items)
                return taken
            }
            if burst.isEmpty { return }
            var sent = 0
            for item in burst {
                sent += item.bytes
                send(item)
            }
            state.withLock { $0.bytes -= sent }
        }
    }

    private func send(_ item: Item) {
        switch item {
        case .barrier(let continuation):
            continuation.resume()
        case .message(let message, let replyTo, let onFailure):
            if let error = send(message, replyTo: replyTo) { onFailure?(error) }
        case .batch(let messages, let replyPrefix, let onFailure):
            for index in messages.indices {
                if let error = send(messages[index], replyTo: replyPrefix + String(index)) { onFailure(index, error) }
            }
        }
    }

    /// Hands one message to libnats; what went wrong, if anything.
    private func send(_ message: OutgoingMessage, replyTo: String?) -> NATSError? {
        do {
            let msg = try makeCMessage(subject: message.subject, replyTo: replyTo, headers: message.headers, payload: message.payload)
            defer { muster_natsMsg_DestroyNow(msg) }
            try message.options.apply(to: msg)
            try check(natsConnection_PublishMsg(connection.pointer, msg), "publish to \(message.subject)")
            return nil
        } catch let error as NATSError {
            return error
        } catch {
            return NATSError(.libnats, "\(error)")
        }
    }

    private func fail(_ items: [Item], _ error: NATSError) {
        for item in items {
            switch item {
            case .barrier(let continuation): continuation.resume()
            case .message(_, _, let onFailure): onFailure?(error)
            case .batch(let messages, _, let onFailure): for index in messages.indices { onFailure(index, error) }
            }
        }
    }
}
