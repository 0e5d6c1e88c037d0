import CNats
import Foundation

/// A subscription as a bounded `AsyncSequence` of messages.
///
/// libnats calls back on the subscription's own thread; the callback wraps the C message in a
/// `NATSMessage` (which owns it from then on) and hands it to a `MessageBuffer`. The buffer box is
/// retained for libnats and released only in the subscription's on-complete callback, when
/// libnats promises no more calls.
package final class NATSSubscription: AsyncSequence, Sendable {
    package typealias Element = NATSMessage

    final class Handle: @unchecked Sendable {
        // @unchecked: set once at init; libnats subscriptions may be unsubscribed from any thread.
        let pointer: OpaquePointer
        /// Where unsubscribing runs: it takes the connection's lock (see `NATSConnection.subscribe`).
        let pool: BlockingPool?
        init(_ pointer: OpaquePointer, pool: BlockingPool? = nil) {
            self.pointer = pointer
            self.pool = pool
        }
        deinit {
            let pointer = UncheckedPointer(pointer)
            let release: @Sendable () -> Void = {
                natsSubscription_Unsubscribe(pointer.value)
                natsSubscription_Destroy(pointer.value)
            }
            if let pool { pool.submit(release) } else { release() }
        }
    }

    /// A libnats pointer handed to the pool once, by its only owner.
    struct UncheckedPointer: @unchecked Sendable {
        // @unchecked: the deinit that makes it gives it away and never touches it again.
        let value: OpaquePointer
        init(_ value: OpaquePointer) { self.value = value }
    }

    let buffer: MessageBuffer
    let handle: Handle
    /// The connection's deadlines, which timed waits for the next message use.
    let timeouts: Timeouts
    package let subject: String

    init(connection: NATSConnection.Handle, pool: BlockingPool?, timeouts: Timeouts, subject: String, queue: String?, capacity: Int) throws {
        let buffer = MessageBuffer(capacity: capacity)
        let box = Unmanaged.passRetained(buffer).toOpaque()
        var sub: OpaquePointer?
        let onMessage: natsMsgHandler = { _, sub, msg, closure in
            guard let msg else { return }
            let buffer = Unmanaged<MessageBuffer>.fromOpaque(closure!).takeUnretainedValue()
            var queued: Int32 = 0
            var queuedBytes: Int32 = 0
            if let sub { natsSubscription_GetPending(sub, &queued, &queuedBytes) }
            buffer.push(NATSMessage(owning: msg), moreComing: queued > 0)
        }
        let status: natsStatus
        if let queue {
            status = natsConnection_QueueSubscribe(&sub, connection.pointer, subject, queue, onMessage, box)
        } else {
            status = natsConnection_Subscribe(&sub, connection.pointer, subject, onMessage, box)
        }
        guard status == NATS_OK, let sub else {
            Unmanaged<MessageBuffer>.fromOpaque(box).release()
            throw NATSError.status(status, "subscribe to \(subject)")
        }
        // libnats's own pending limits sit behind our buffer: generous, but bounded.
        natsSubscription_SetPendingLimits(sub, 65_536, 64 * 1024 * 1024)
        let completeStatus = natsSubscription_SetOnCompleteCB(sub, { closure in
            let buffer = Unmanaged<MessageBuffer>.fromOpaque(closure!)
            buffer.takeUnretainedValue().finish()
            buffer.release()
        }, box)
        if completeStatus != NATS_OK {
            natsSubscription_Unsubscribe(sub)
            natsSubscription_Destroy(sub)
            throw NATSError.status(completeStatus, "subscribe to \(subject)")
        }
        self.buffer = buffer
        self.handle = Handle(sub, pool: pool)
        self.timeouts = timeouts
        self.subject = subject
    }

    /// Stops delivery. Buffered messages can still be read; then the sequence ends.
    package func unsubscribe() {
        buffer.finish()
        let pointer = UncheckedPointer(handle.pointer)
        let handle = self.handle // kept alive until the unsubscribe has run
        let unsubscribe: @Sendable () -> Void = { withExtendedLifetime(handle) { _ = natsSubscription_Unsubscribe(pointer.value) } }
        if let pool = handle.pool { pool.submit(unsubscribe) } else { unsubscribe() }
    }

    /// Waits at most `timeout` for the next message; nil on timeout or when the subscription ended.
    package func next(timeout: Duration) async -> NATSMessage? {
        if case .message(let message) = await wait(timeout: timeout) { return message }
        return nil
    }

    /// The next message, or whether the wait timed out or the subscription ended.
    func wait(timeout: Duration) async -> MessageBuffer.Wait {
        await buffer.next(timeout: timeout, on: timeouts)
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: NATSSubscription
        package mutating func next() async -> NATSMessage? { await subscription.buffer.next() }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: self) }
}
