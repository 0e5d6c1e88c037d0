import Foundation
import Synchronization

/// A bounded single-consumer queue between a libnats delivery thread and Swift concurrency.
///
/// The producer is libnats's callback thread: when the buffer is full it blocks there, so the
/// back-pressure lands in libnats's own pending queue (whose limits report a slow consumer)
/// instead of growing memory here. The consumer is one async iterator.
final class MessageBuffer: @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only while holding `condition`.
    private let condition = NSCondition()
    private var items: [NATSMessage] = []
    private var head = 0
    private var waiter: CheckedContinuation<NATSMessage?, Never>?
    /// How many times a consumer parked: which park a deadline belongs to.
    private var parks: UInt64 = 0
    private var finished = false
    /// True while the producer sleeps on a full buffer: only then does a pop need to wake it.
    private var producerWaiting = false
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "a subscription buffer needs room for one message")
        self.capacity = capacity
    }

    /// How many messages may gather before a parked consumer is woken even though more are coming.
    static let wakeBatch = 128

    /// Called from libnats's thread. Blocks while full; returns false once the buffer is finished.
    /// `moreComing` says libnats already holds further messages for this subscription: then a
    /// parked consumer is left asleep until a batch has gathered, one wake-up per batch instead of
    /// one per message.
    @discardableResult
    func push(_ message: NATSMessage, moreComing: Bool = false) -> Bool {
        condition.lock()
        while !finished && waiter == nil && items.count - head >= capacity {
            producerWaiting = true
            condition.wait()
        }
        producerWaiting = false
        if finished { condition.unlock(); return false }
        items.append(message)
        if let waiter, !moreComing || items.count - head >= Self.wakeBatch {
            self.waiter = nil
            let first = popLocked()
            condition.unlock()
            waiter.resume(returning: first)
            return true
        }
        condition.unlock()
        return true
    }

    /// No more messages: wakes a blocked producer and ends the consumer after what is buffered.
    func finish() {
        condition.lock()
        finished = true
        let waiter = self.waiter
        self.waiter = nil
        condition.broadcast()
        condition.unlock()
        waiter?.resume(returning: nil)
    }

    var isFinished: Bool { condition.lock(); defer { condition.unlock() }; return finished }

    private func popLocked() -> NATSMessage? {
        guard head < items.count else { return nil }
        let message = items[head]
        head += 1
        if head >= 1024 || head == items.count {
            items.removeFirst(head)
            head = 0
        }
        // A producer blocked on a full buffer is woken once half of it is free, not on every pop:
        // otherwise a consumer slower than the server wakes it once a message.
        if producerWaiting, items.count - head <= capacity / 2 { condition.signal() }
        return message
    }

    /// Up to `max` buffered messages, without waiting, under one lock.
    func popAvailable(max: Int, into messages: inout [NATSMessage]) {
        condition.lock()
        defer { condition.unlock() }
        var taken = 0
        while taken < max, let message = popLocked() {
            messages.append(message)
            taken += 1
        }
    }

    /// A buffered message at once, or whether the buffer is finished. (Locks live in sync code.)
    private func poll() -> (message: NATSMessage?, finished: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (popLocked(), finished)
    }

    /// The next message, or nil when finished or the task is cancelled.
    func next() async -> NATSMessage? {
        let (ready, done) = poll()
        if let ready { return ready }
        if done || Task.isCancelled { return nil }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<NATSMessage?, Never>) in
                park(continuation)
            }
        } onCancel: {
            takeWaiter()?.resume(returning: nil)
        }
    }

    /// Hands the continuation a message now (nil), or parks it for the producer (the park's number).
    @discardableResult
    private func park(_ continuation: CheckedContinuation<NATSMessage?, Never>) -> UInt64? {
        condition.lock()
        if let message = popLocked() { condition.unlock(); continuation.resume(returning: message); return nil }
        if finished || Task.isCancelled { condition.unlock(); continuation.resume(returning: nil); return nil }
        waiter = continuation
        parks &+= 1
        let parked = parks
        if producerWaiting { condition.signal() } // a producer blocked on a full buffer may now hand over directly
        condition.unlock()
        return parked
    }

    /// The parked waiter, taken; with `parked`, only if it is still that park's.
    private func takeWaiter(parked: UInt64? = nil) -> CheckedContinuation<NATSMessage?, Never>? {
        condition.lock()
        defer { condition.unlock() }
        if let parked, parked != parks { return nil }
        let waiter = self.waiter
        self.waiter = nil
        return waiter
    }

    enum Wait: Sendable { case message(NATSMessage), timedOut, finished }

    /// The next message, waiting at most `timeout` (on `timeouts`: no task or timer of its own).
    /// A message that arrives as the deadline passes is kept for the next call.
    func next(timeout: Duration, on timeouts: Timeouts) async -> Wait {
        let (ready, done) = poll()
        if let ready { return .message(ready) }
        if done { return .finished }
        let wait = TimedWait()
        let message: NATSMessage? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<NATSMessage?, Never>) in
                guard let parked = park(continuation) else { return }
                let deadline = timeouts.schedule(after: timeout) { [self] in
                    // Only this wait's waiter: a later wait's is not this deadline's to end.
                    guard let waiter = takeWaiter(parked: parked) else { return }
                    wait.timedOut.store(true, ordering: .releasing)
                    waiter.resume(returning: nil)
                }
                wait.deadline.withLock { $0 = deadline }
            }
        } onCancel: {
            takeWaiter()?.resume(returning: nil)
        }
        // Set by now (the closure above runs to its end before the wait can return); a message that
        // came first leaves it to be cancelled here, or to fire on nothing if it was already due.
        if let deadline = wait.deadline.withLock({ $0 }) { timeouts.cancel(deadline) }
        if let message { return .message(message) }
        if wait.timedOut.load(ordering: .acquiring) { return .timedOut }
        return isFinished ? .finished : .timedOut // cancelled
    }

    /// One timed wait's deadline and whether it passed.
    private final class TimedWait: Sendable {
        let timedOut = Atomic<Bool>(false)
        let deadline = Mutex<Timeouts.Token?>(nil)
    }
}
