import Foundation
import Synchronization

/// Pipelined JetStream publishing with a bound on messages in flight.
///
/// `submit` returns as soon as the message is handed to libnats (waiting first if `maxInFlight`
/// acks are outstanding); each ack, or error, reaches the message's callback on the reply thread.
/// `finish` waits until every submitted message has been answered, or fails after `ackTimeout`
/// without progress.
package final class JetStreamPublisher: Sendable {
    struct State: Sendable {
        var submitted: UInt64 = 0
        var outstanding: Set<UInt64> = []
    }

    package typealias Completion = @Sendable (Result<PubAck, NATSError>) -> Void

    let jetStream: JetStream
    package let maxInFlight: Int
    package let ackTimeout: Duration
    private let state = Mutex(State())
    /// Counts every message that left `outstanding`: in flight = submitted - answered.
    private let progress = AckProgress()

    package init(_ jetStream: JetStream, maxInFlight: Int = 4096, ackTimeout: Duration = .seconds(10)) {
        precondition(maxInFlight > 0)
        self.jetStream = jetStream
        self.maxInFlight = maxInFlight
        self.ackTimeout = ackTimeout
    }

    private func answered(_ token: UInt64) {
        if state.withLock({ $0.outstanding.remove(token) != nil }) { progress.answer() }
    }

    /// Waits until at most `limit` are in flight, failing when no ack arrives for `ackTimeout`.
    private func wait(untilAtMost limit: Int) async throws {
        let target = state.withLock { $0.outstanding.count <= limit ? nil : $0.submitted - UInt64(limit) }
        guard let target else { return }
        if !(await progress.wait(untilAnswered: target, timeout: ackTimeout, on: jetStream.connection.timeouts)) { throw failOutstanding() }
    }

    /// Gives up on every outstanding ack: their callbacks get a timeout error.
    private func failOutstanding() -> NATSError {
        let error = NATSError(.timeout, "no JetStream ack within \(ackTimeout)")
        let tokens = state.withLock { state -> Set<UInt64> in
            defer { state.outstanding.removeAll() }
            return state.outstanding
        }
        progress.answer(UInt64(tokens.count))
        // Their callbacks will never run; the caller learns from the thrown error that these
        // messages are unconfirmed (a retry with the same Nats-Msg-Id cannot duplicate them).
        for token in tokens { _ = jetStream.connection.replies.forget(token) }
        return error
    }

    /// Hands one message to libnats, waiting first while `maxInFlight` acks are outstanding.
    package func submit(_ message: OutgoingMessage, completion: @escaping Completion) async throws {
        if state.withLock({ $0.outstanding.count >= maxInFlight }) {
            try await wait(untilAtMost: maxInFlight / 2) // hysteresis: one wait per half window
        }
        let (token, replyTo) = try jetStream.connection.replies.expectReply { [self] token, reply in
            completion(PubAck.result(of: reply, subject: message.subject))
            answered(token)
        }
        state.withLock { state in
            state.submitted += 1
            state.outstanding.insert(token)
        }
        do {
            try jetStream.connection.publish(message, replyTo: replyTo, token: token)
        } catch {
            if jetStream.connection.replies.forget(token) { answered(token) }
            throw error
        }
    }

    /// Waits until every submitted message has its ack.
    package func finish() async throws {
        try await wait(untilAtMost: 0)
    }
}
