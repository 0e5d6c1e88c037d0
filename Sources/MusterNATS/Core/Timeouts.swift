import NIOCore
import NIOPosix
import Synchronization

/// Deadlines for waits that nearly always end long before them: a reply, an ack, the next pulled
/// message, a fold catching up. One timer, armed for the earliest deadline, instead of a
/// `Task.sleep` raced against each wait. That race cost a child task, a libdispatch timer (which
/// fires at its deadline even after the wait ended) and three or four thread wake-ups per wait,
/// however fast the reply came: a third of a password sign-in's wake-ups, and every append paid
/// it. Here a wait that ends in time costs a dictionary insert and remove under a lock.
///
/// The timer is armed for the earliest deadline (plus `resolution`, so that deadlines close
/// together fire together), not ticking: a process whose waits all end in time, or all wait long
/// (a pull consumer's request), is woken about once per shortest wait, not every `resolution`.
/// A deadline whose wait ended first leaves the timer armed; it then fires for nothing and is
/// armed for the next one. A deadline fires up to `resolution` late, and its `expire` runs on
/// the timer's event loop: it must only resume or hand off, never block.
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
        /// When the armed timer fires (nil: not armed); at most `resolution` after the earliest deadline.
        var firesAt: NIODeadline?
        var timer: Scheduled<Void>?
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
            // Armed for later than this one is due (or not at all): arm it for this one.
            if state.firesAt.map({ deadline + resolution < $0 }) ?? true { arm(&state, at: deadline + resolution) }
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
        // A connection dropped without closing: its timer must not fire for nobody.
        state.withLock { $0.timer?.cancel() }
    }

    /// Forgets a deadline whose wait ended first; nothing if it already fired. The timer stays
    /// armed: disarming would cost the loop a wake-up now instead of maybe one later.
    package func cancel(_ token: Token) {
        _ = state.withLock { $0.entries.removeValue(forKey: token.value) }
    }

    /// Waiting now, for tests and metrics.
    package var waiting: Int { state.withLock { $0.entries.count } }

    /// Whether the timer is armed, for tests: it is not while nothing waits.
    package var armed: Bool { state.withLock { $0.timer != nil } }

    /// Fires every deadline now and disarms the timer: whoever still waits is told it timed out.
    package func close() {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            disarm(&state)
            defer { state.entries.removeAll() }
            return state.entries.values.map(\.expire)
        }
        for expire in due { expire() }
    }

    private func arm(_ state: inout State, at when: NIODeadline) {
        state.timer?.cancel()
        state.firesAt = when
        state.timer = loop.scheduleTask(deadline: when) { [weak self] in self?.sweep() }
    }

    private func disarm(_ state: inout State) {
        state.timer?.cancel()
        state.timer = nil
        state.firesAt = nil
    }

    /// Takes what is due and arms the timer for the earliest deadline left, if any.
    private func sweep() {
        let now = NIODeadline.now()
        let due = state.withLock { state -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            var earliest: NIODeadline?
            var expired: [UInt64] = []
            for (token, entry) in state.entries {
                if entry.deadline <= now {
                    expired.append(token)
                    due.append(entry.expire)
                } else {
                    earliest = min(earliest ?? entry.deadline, entry.deadline)
                }
            }
            for token in expired { state.entries[token] = nil }
            if let earliest { arm(&state, at: earliest + resolution) } else { disarm(&state) }
            return due
        }
        for expire in due { expire() }
    }
}
