import Synchronization

/// How many of the messages published so far have been answered (an ack or an error), and the
/// one wait for more: what pipelined publishing (`JetStreamPublisher`, `publishAll`) blocks on
/// when its window is full, and at its end.
final class AckProgress: Sendable {
    private struct State: Sendable {
        var answered: UInt64 = 0
        var waiter: (target: UInt64, continuation: CheckedContinuation<Void, Never>)?
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
    func wait(untilAnswered target: UInt64, timeout: Duration) async -> Bool {
        while true {
            let before = state.withLock { $0.answered >= target ? nil : $0.answered }
            guard let before else { return true }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.answers(reaching: target) }
                group.addTask { try? await Task.sleep(for: timeout) }
                await group.next()
                group.cancelAll() // whichever finished first, the other ends now
            }
            if state.withLock({ $0.answered < target && $0.answered == before }) { return false }
        }
    }

    /// Returns once `target` is reached, or at once when the task is cancelled.
    private func answers(reaching target: UInt64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.answered >= target || Task.isCancelled { return true }
                    state.waiter = (target, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter?.continuation
            }?.resume()
        }
    }
}
