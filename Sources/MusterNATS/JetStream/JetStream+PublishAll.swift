import Synchronization

/// The acks of one batch of publishes, by the message's index: the batch has one reply-router
/// entry and one queue entry per window, not one of each per message.
final class BatchAcks: Sendable {
    private let answers: Mutex<[Result<PubAck, NATSError>?]>
    let subjects: [String]
    /// Counts the messages answered (each once).
    let progress = AckProgress()

    init(subjects: [String]) {
        self.subjects = subjects
        answers = Mutex(Array(repeating: nil, count: subjects.count))
    }

    var answered: Int { Int(progress.answered) }

    /// One reply (or, index nil, the end of every reply still due). A second answer for an index
    /// is ignored, as is an index outside the batch.
    func receive(_ index: Int?, _ reply: Result<NATSMessage, NATSError>) {
        let result = index.map { PubAck.result(of: reply, subject: subjects.indices.contains($0) ? subjects[$0] : "") }
        let newlyAnswered = answers.withLock { results -> Int in
            if let index, let result {
                guard results.indices.contains(index), results[index] == nil else { return 0 }
                results[index] = result
                return 1
            }
            guard case .failure(let error) = reply else { return 0 }
            var ended = 0
            for index in results.indices where results[index] == nil {
                results[index] = .failure(error)
                ended += 1
            }
            return ended
        }
        progress.answer(UInt64(newlyAnswered))
    }

    /// Every message's ack or error.
    var results: [Result<PubAck, NATSError>] {
        answers.withLock { $0.map { $0 ?? .failure(NATSError(.timeout, "no ack")) } }
    }
}

extension JetStream {
    /// Publishes many messages pipelined, in order, and returns each one's ack or error; at most
    /// `maxInFlight` wait for their ack at once. Throws when no ack came for `ackTimeout` (those
    /// still unanswered are unconfirmed: a retry with the same `Nats-Msg-Id` cannot duplicate them).
    package func publishAll(_ messages: [OutgoingMessage], maxInFlight: Int = 4096,
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
            if sent > 0, !(await acks.progress.wait(untilAnswered: UInt64(max(0, sent - (maxInFlight - window))), timeout: ackTimeout, on: connection.timeouts)) {
                throw NATSError(.timeout, "no JetStream ack within \(ackTimeout)")
            }
            // Ended as a whole (the connection was lost or closed): the rest is not sent at all.
            if acks.answered == messages.count { break }
            let end = min(messages.count, sent + window)
            try connection.publish(messages[sent..<end], replyPrefix: replyPrefix, token: token)
            sent = end
        }
        guard await acks.progress.wait(untilAnswered: UInt64(messages.count), timeout: ackTimeout, on: connection.timeouts) else {
            throw NATSError(.timeout, "no JetStream ack within \(ackTimeout)")
        }
        return acks.results
    }
}
