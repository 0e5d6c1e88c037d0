import Foundation
import Synchronization

/// Pipelined JetStream publishing with a bound on messages in flight.
///
/// `submit` returns as soon as the message is handed to libnats (waiting first if `maxInFlight`
/// acks are outstanding); each ack, or error, reaches the message's callback on the reply thread.
/// `finish` waits until every submitted message has been answered, or fails after `ackTimeout`
/// without progress.
public final class JetStreamPublisher: Sendable {
    struct State: Sendable {
        var inFlight = 0
        var answered: UInt64 = 0
        var waiter: CheckedContinuation<Void, Never>?
        var waitBelow = 0
        var outstanding: Set<UInt64> = []
    }

    public typealias Completion = @Sendable (Result<PubAck, NATSError>) -> Void

    let jetStream: JetStream
    public let maxInFlight: Int
    public let ackTimeout: Duration
    private let state = Mutex(State())

    public init(_ jetStream: JetStream, maxInFlight: Int = 4096, ackTimeout: Duration = .seconds(10)) {
        precondition(maxInFlight > 0)
        self.jetStream = jetStream
        self.maxInFlight = maxInFlight
        self.ackTimeout = ackTimeout
    }

    private func answered(_ token: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.outstanding.remove(token) != nil else { return nil }
            state.inFlight -= 1
            state.answered &+= 1
            if state.inFlight <= state.waitBelow, let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            return nil
        }
        waiter?.resume()
    }

    /// Waits until at most `limit` are in flight, failing when no ack arrives for `ackTimeout`.
    private func wait(untilAtMost limit: Int) async throws {
        while true {
            let before = state.withLock { $0.inFlight <= limit ? nil : $0.answered }
            guard let before else { return }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await withTaskCancellationHandler {
                        await withCheckedContinuation { continuation in
                            let ready = self.state.withLock { state -> Bool in
                                if state.inFlight <= limit || Task.isCancelled { return true }
                                state.waitBelow = limit
                                state.waiter = continuation
                                return false
                            }
                            if ready { continuation.resume() }
                        }
                    } onCancel: {
                        self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                            defer { state.waiter = nil }
                            return state.waiter
                        }?.resume()
                    }
                }
                group.addTask { try? await Task.sleep(for: self.ackTimeout) }
                await group.next()
                group.cancelAll() // whichever finished first, the other ends now
            }
            let stalled = state.withLock { $0.inFlight > limit && $0.answered == before }
            if stalled { throw failOutstanding() }
        }
    }

    /// Gives up on every outstanding ack: their callbacks get a timeout error.
    private func failOutstanding() -> NATSError {
        let error = NATSError(.timeout, "no JetStream ack within \(ackTimeout)")
        let tokens = state.withLock { state -> Set<UInt64> in
            defer { state.outstanding.removeAll(); state.inFlight = 0 }
            return state.outstanding
        }
        // Their callbacks will never run; the caller learns from the thrown error that these
        // messages are unconfirmed (a retry with the same Nats-Msg-Id cannot duplicate them).
        for token in tokens { _ = jetStream.connection.replies.forget(token) }
        return error
    }

    /// Hands one message to libnats, waiting first while `maxInFlight` acks are outstanding.
    public func submit(_ message: OutgoingMessage, completion: @escaping Completion) async throws {
        if state.withLock({ $0.inFlight >= maxInFlight }) {
            try await wait(untilAtMost: maxInFlight / 2) // hysteresis: one wait per half window
        }
        let (token, replyTo) = try jetStream.connection.replies.expectReply { [self] token, reply in
            completion(PubAck.result(of: reply, subject: message.subject))
            answered(token)
        }
        state.withLock { state in
            state.inFlight += 1
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
    public func finish() async throws {
        try await wait(untilAtMost: 0)
    }
}
