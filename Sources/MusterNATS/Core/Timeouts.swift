import NIOCore
import NIOPosix
import Synchronization

/// Deadlines for waits that nearly always end long before them: a reply, an ack, the next pulled
/// message, a fold catching up. One repeating timer looks at them every `resolution`, instead of
/// a `Task.sleep` raced against each wait. That race cost a child task, a libdispatch timer (which
/// fires at its deadline even after the wait ended) and three or four thread wake-ups per wait,
/// however fast the reply came: a third of a password sign-in's wake-ups, and every append paid
/// it. Here a wait that ends in time costs a dictionary insert and remove under a lock.
///
/// The timer runs only while something waits, so an idle process is not woken. A deadline fires
/// up to `resolution` late, and its `expire` runs on the timer's event loop: it must only resume
/// or hand off, never block.
package final class Timeouts: Sendable {
    package struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct Entry {
        var deadline: NIODeadline
        var expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var next: UInt64 = 0
        /// No entry is due before this (entries cancelled since may make it early, never late).
        var earliest = NIODeadline.distantFuture
        var ticking: RepeatedTask?
        var closed = false
    }

    private let state = Mutex(State())
    /// NIO's shared loops, which run Swift's tasks here anyway: a timer there wakes no other thread.
    private let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    private let resolution: TimeAmount

    package init(resolution: Duration = .milliseconds(20)) {
        self.resolution = TimeAmount(resolution)
    }

    /// Calls `expire` once `limit` has passed, unless `cancel` came first.
    @discardableResult
    package func schedule(after limit: Duration, _ expire: @escaping @Sendable () -> Void) -> Token {
        let deadline = NIODeadline.now() + TimeAmount(limit)
        let token = state.withLock { state -> UInt64? in
            guard !state.closed else { return nil }
            state.next &+= 1
            state.entries[state.next] = Entry(deadline: deadline, expire: expire)
            state.earliest = min(state.earliest, deadline)
            if state.ticking == nil {
                state.ticking = loop.scheduleRepeatedTask(initialDelay: resolution, delay: resolution) { [weak self] _ in
                    self?.sweep()
                }
            }
            return state.next
        }
        guard let token else {
            // Closed: nothing will look at the deadline, so it has passed (on the loop, not in the caller's stack).
            loop.execute(expire)
            return Token(value: 0)
        }
        return Token(value: token)
    }

    deinit {
        // A connection dropped without closing: its timer must not go on ticking for nobody.
        state.withLock { $0.ticking?.cancel() }
    }

    /// Forgets a deadline whose wait ended first; nothing if it already fired.
    package func cancel(_ token: Token) {
        _ = state.withLock { $0.entries.removeValue(forKey: token.value) }
    }

    /// Waiting now, for tests and metrics.
    package var waiting: Int { state.withLock { $0.entries.count } }

    /// Fires every deadline now and stops the timer: whoever still waits is told it timed out.
    package func close() {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            state.ticking?.cancel()
            state.ticking = nil
            defer { state.entries.removeAll() }
            return state.entries.values.map(\.expire)
        }
        for expire in due { expire() }
    }

    /// Takes what is due; stops the timer once nothing waits.
    private func sweep() {
        let now = NIODeadline.now()
        let due = state.withLock { state -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            if state.earliest <= now {
                var earliest = NIODeadline.distantFuture
                var expired: [UInt64] = []
                for (token, entry) in state.entries {
                    if entry.deadline <= now {
                        expired.append(token)
                        due.append(entry.expire)
                    } else {
                        earliest = min(earliest, entry.deadline)
                    }
                }
                for token in expired { state.entries[token] = nil }
                state.earliest = earliest
            }
            if state.entries.isEmpty {
                state.ticking?.cancel()
                state.ticking = nil
                state.earliest = .distantFuture
            }
            return due
        }
        for expire in due { expire() }
    }
}
