import Synchronization

/// How many of the messages published so far have been answered (an ack or an error), and the
/// one wait for more: what pipelined publishing (`JetStreamPublisher`, `publishAll`) blocks on
/// when its window is full, and at its end.
final class AckProgress: Sendable {
    private struct State: Sendable {
        var answered: UInt64 = 0
        var waiter: (target: UInt64, continuation: CheckedContinuation<Void, Never>)?
        /// The current wait's deadline passed (perhaps before it parked).
        var expired = false
    }

    private let state = Mutex(State())

    var answered: UInt64 { state.withLock { $0.answered } }

    /// Counts `count` more answers, and wakes the waiter once its target is reached.
    func answer(_ count: UInt64 = 1) {
        guard count > 0 else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.answered &+= count
            guard let waiter = state.waiter, state.answered >= waiter.target else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Waits until `target` messages are answered; false when none was answered for `timeout`
    /// (progress restarts the clock: a slow server is waited for, a silent one is not).
    func wait(untilAnswered target: UInt64, timeout: Duration, on timeouts: Timeouts) async -> Bool {
        while true {
            let before = state.withLock { state -> UInt64? in
                state.expired = false
                return state.answered >= target ? nil : state.answered
            }
            guard let before else { return true }
            // The deadline ends the wait as cancelling it would; an answer cancels the deadline.
            let deadline = timeouts.schedule(after: timeout) { [self] in
                state.withLock { $0.expired = true }
                endWait()
            }
            await answers(reaching: target)
            timeouts.cancel(deadline)
            if state.withLock({ $0.answered < target && $0.answered == before }) { return false }
        }
    }

    /// Returns once `target` is reached, or at once when the task is cancelled.
    private func answers(reaching target: UInt64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.answered >= target || state.expired || Task.isCancelled { return true }
                    state.waiter = (target, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            endWait()
        }
    }

    /// Resumes the waiter, if any, whatever the count.
    private func endWait() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }?.resume()
    }
}
