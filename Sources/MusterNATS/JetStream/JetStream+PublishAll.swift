import Synchronization

/// The acks of one batch of publishes, by the message's index: the batch has one reply-router
/// entry and one queue entry per window, not one of each per message.
final class BatchAcks: Sendable {
    struct State: Sendable {
        var results: [Result<PubAck, NATSError>?]
        var answered = 0
        var waiter: (atLeast: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state: Mutex<State>
    let subjects: [String]

    init(subjects: [String]) {
        self.subjects = subjects
        state = Mutex(State(results: Array(repeating: nil, count: subjects.count)))
    }

    var answered: Int { state.withLock { $0.answered } }

    /// One reply (or, index nil, the end of every reply still due). A second answer for an index
    /// is ignored, as is an index outside the batch.
    func receive(_ index: Int?, _ reply: Result<NATSMessage, NATSError>) {
        let result = index.map { PubAck.result(of: reply, subject: subjects.indices.contains($0) ? subjects[$0] : "") }
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let index, let result {
                guard state.results.indices.contains(index), state.results[index] == nil else { return nil }
                state.results[index] = result
                state.answered += 1
            } else if case .failure(let error) = reply {
                for index in state.results.indices where state.results[index] == nil { state.results[index] = .failure(error) }
                state.answered = state.results.count
            }
            guard let waiter = state.waiter, state.answered >= waiter.atLeast else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Waits until `atLeast` messages are answered; false when none was for `timeout`.
    func wait(untilAnswered atLeast: Int, timeout: Duration) async -> Bool {
        while true {
            let before = state.withLock { $0.answered >= atLeast ? nil : $0.answered }
            guard let before else { return true }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await withTaskCancellationHandler {
                        await withCheckedContinuation { continuation in
                            let ready = self.state.withLock { state -> Bool in
                                if state.answered >= atLeast || Task.isCancelled { return true }
                                state.waiter = (atLeast, continuation)
                                return false
                            }
                            if ready { continuation.resume() }
                        }
                    } onCancel: {
                        self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                            defer { state.waiter = nil }
                            return state.waiter?.continuation
                        }?.resume()
                    }
                }
                group.addTask { try? await Task.sleep(for: timeout) }
                await group.next()
                group.cancelAll() // whichever finished first, the other ends now
            }
            if state.withLock({ $0.answered < atLeast && $0.answered == before }) { return false }
        }
    }

    /// Every message's ack or error.
    var results: [Result<PubAck, NATSError>] {
        state.withLock { $0.results.map { $0 ?? .failure(NATSError(.timeout, "no ack")) } }
    }
}

extension JetStream {
    /// Publishes many messages pipelined, in order, and returns each one's ack or error; at most
    /// `maxInFlight` wait for their ack at once. Throws when no ack came for `ackTimeout` (those
    /// still unanswered are unconfirmed: a retry with the same `Nats-Msg-Id` cannot duplicate them).
    public func publishAll(_ messages: [OutgoingMessage], maxInFlight: Int = 4096,
                           ackTimeout: Duration = .seconds(10)) async throws -> [Result<PubAck, NATSError>] {
        precondition(maxInFlight > 0)
        guard !messages.isEmpty else { return [] }
        let acks = BatchAcks(subjects: messages.map(\.subject))
        let (token, replyPrefix) = try connection.replies.expectReplies { index, reply in acks.receive(index, reply) }
        defer { _ = connection.replies.forget(token) }
        var sent = 0
        while sent < messages.count {
            // Hysteresis, as a window: the next half window leaves once half the last one is answered.
            let window = sent == 0 ? maxInFlight : max(1, maxInFlight / 2)
            if sent > 0, !(await acks.wait(untilAnswered: sent - (maxInFlight - window), timeout: ackTimeout)) {
                throw NATSError(.timeout, "no JetStream ack within \(ackTimeout)")
            }
            // Ended as a whole (the connection was lost or closed): the rest is not sent at all.
            if acks.answered == messages.count { break }
            let end = min(messages.count, sent + window)
            try connection.publish(messages[sent..<end], replyPrefix: replyPrefix, token: token)
            sent = end
        }
        guard await acks.wait(untilAnswered: messages.count, timeout: ackTimeout) else {
            throw NATSError(.timeout, "no JetStream ack within \(ackTimeout)")
        }
        return acks.results
    }
}
