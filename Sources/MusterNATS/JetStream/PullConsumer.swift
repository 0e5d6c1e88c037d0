package import Foundation

/// A message delivered by a pull consumer, with its delivery facts and ack operations.
package struct JetStreamMessage: Sendable {
    package var message: NATSMessage
    package var delivery: DeliveryInfo
    let connection: NATSConnection

    package var subject: String { message.subject }
    package var headers: NATSHeaders { message.headers }
    package var payload: Data { message.payload }
    package func header(_ name: String) -> String? { message.header(name) }

    private func reply(_ body: String) throws {
        guard let replyTo = message.replyTo else { throw NATSError(.badReply, "message has no ack subject") }
        try connection.publish(replyTo, payload: Data(body.utf8))
    }

    /// Acknowledges; with `AckPolicy.all` this also acknowledges everything before it.
    package func ack() throws { try reply("+ACK") }
    /// Acknowledges and waits for the server to confirm it recorded the ack.
    package func ackSync(timeout: Duration = .seconds(5)) async throws {
        guard let replyTo = message.replyTo else { throw NATSError(.badReply, "message has no ack subject") }
        _ = try await connection.request(replyTo, payload: Data("+ACK".utf8), timeout: timeout)
    }
    /// Asks for redelivery, optionally after a delay.
    package func nak(delay: Duration? = nil) throws {
        if let delay { try reply("-NAK {\"delay\":\(delay.nanoseconds)}") } else { try reply("-NAK") }
    }
    /// Tells the server never to deliver this message again.
    package func term(reason: String? = nil) throws { try reply(reason.map { "+TERM \($0)" } ?? "+TERM") }
    /// Resets the ack-wait timer while work on the message goes on.
    package func inProgress() throws { try reply("+WPI") }
}

/// What a pull consumer hands out next.
package enum PullEvent: Sendable {
    case message(JetStreamMessage)
    case idle
}

/// What a pull consumer hands out next, in batches.
package enum PullBatch: Sendable {
    case messages([JetStreamMessage])
    case idle
}

/// Messages of an existing durable pull consumer as an endless `AsyncSequence`, fetched in
/// batches with the next batch requested while this one is handled.
package struct PullConsumer: AsyncSequence, Sendable {
    package typealias Element = JetStreamMessage

    package let jetStream: JetStream
    package let stream: String
    package let consumer: String
    package let batch: Int
    /// How long one pull request waits on the server for messages.
    package let expires: Duration
    /// How long the iterator waits for a message before it hands out `.idle` (a moment for the
    /// caller's housekeeping); nil: until a request expires. Shorter than `expires`, it lets a
    /// consumer that is caught up keep one long request open instead of asking again each time:
    /// a lost request (a reconnect, a server restart) is asked again at the next `.idle`.
    package let idleAfter: Duration?
    /// While the server reports more messages pending, `nextBatch(max:)` waits for them until it
    /// has `max`: for a consumer that pays once a batch (a database transaction), so that it
    /// catches up in large batches; one that has caught up is not held back.
    package let gathersWhilePending: Bool

    package init(_ jetStream: JetStream, stream: String, consumer: String, batch: Int = 256, expires: Duration = .seconds(5),
                idleAfter: Duration? = nil, gathersWhilePending: Bool = false) {
        self.jetStream = jetStream
        self.stream = stream
        self.consumer = consumer
        self.batch = batch
        self.expires = expires
        self.idleAfter = idleAfter
        self.gathersWhilePending = gathersWhilePending
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let source: PullConsumer
        var subscription: NATSSubscription?
        var inbox = ""
        var state: PullState
        /// When the last request was sent, and on which connection to a server (libnats's
        /// reconnect count): a request sent before a reconnect may be gone with the server.
        var pulledAt = ContinuousClock.now
        var pulledOnConnection = 0

        init(source: PullConsumer) {
            self.source = source
            self.state = PullState(batch: source.batch)
        }

        private mutating func perform(_ action: PullState.Action) throws {
            switch action {
            case .none: break
            case .pull(let count):
                struct Request: Encodable { var batch: Int; var expires: Int64 }
                let body = try JetStream.encoder.encode(Request(batch: count, expires: source.expires.nanoseconds))
                let connection = source.jetStream.connection
                pulledAt = .now
                pulledOnConnection = connection.reconnectCount
                try connection.publish("$JS.API.CONSUMER.MSG.NEXT.\(source.stream).\(source.consumer)", payload: body, replyTo: inbox)
            case .fail(let reason):
                throw NATSError(.jetStreamAPI, "\(source.stream) > \(source.consumer): \(reason)")
            }
        }

        package mutating func next() async throws -> JetStreamMessage? {
            while let event = try await nextEvent() {
                if case .message(let message) = event { return message }
            }
            return nil
        }

        /// Settles one message from the inbox: a status updates the pull bookkeeping (and is
        /// `.idle` when a request ended empty-handed), a delivery becomes a `JetStreamMessage`.
        private mutating func process(_ message: NATSMessage) throws -> PullEvent? {
            // A delivery is known by its ack subject, which costs less to read than the headers a
            // status message is known by (and a delivery's headers are then never parsed).
            if let delivery = message.withReplyTo({ DeliveryInfo(ackSubject: $0, stream: source.stream, consumer: source.consumer) }) {
                try perform(state.messageReceived())
                return .message(JetStreamMessage(message: message, delivery: delivery, connection: source.jetStream.connection))
            }
            if let code = message.status {
                let pending = message.headers["Nats-Pending-Messages"].flatMap { Int($0) }
                try perform(state.status(code, description: message.statusDescription ?? "", pendingMessages: pending))
                return code == 404 || code == 408 ? .idle : nil
            }
            try perform(state.messageReceived())
            return nil // not a JetStream delivery: nothing to hand out
        }

        /// Up to `max` messages at once: waits for the first, then takes what is already buffered
        /// (and, with `gathersWhilePending`, waits for more while the server has more).
        /// One await per batch instead of one per message is what makes a replay fast.
        package mutating func nextBatch(max: Int) async throws -> PullBatch? {
            let first = try await nextAvailable(max: max)
            guard source.gathersWhilePending, case .messages(var batch)? = first else { return first }
            while batch.count < max, let last = batch.last, last.delivery.pending > 0 {
                guard case .messages(let more)? = try await nextAvailable(max: max - batch.count) else { break }
                batch.append(contentsOf: more)
            }
            return .messages(batch)
        }

        private mutating func nextAvailable(max: Int) async throws -> PullBatch? {
            guard let first = try await nextEvent() else { return nil }
            guard case .message(let message) = first else { return .idle }
            var batch = [message]
            batch.reserveCapacity(max)
            var raw: [NATSMessage] = []
            raw.reserveCapacity(max - 1)
            subscription?.buffer.popAvailable(max: max - 1, into: &raw)
            for message in raw {
                if case .message(let next) = try process(message) { batch.append(next) }
            }
            return .messages(batch)
        }

        /// The next message, or `.idle` when a pull request ended with nothing more to deliver
        /// (the consumer has caught up): a moment for the caller to do housekeeping.
        package mutating func nextEvent() async throws -> PullEvent? {
            let connection = source.jetStream.connection
            if subscription == nil {
                inbox = connection.newInbox()
                subscription = try await connection.subscribe(inbox, capacity: source.batch * 2 + 16)
                try perform(state.start())
            }
            guard let subscription else { return nil }
            while !Task.isCancelled {
                switch await subscription.wait(timeout: source.idleAfter ?? source.expires + .seconds(2)) {
                case .finished:
                    return nil
                case .timedOut:
                    // Quiet for a while: ask again only if the requests out may be lost (no status
                    // ended them by their expiry, or the connection has been to another server since).
                    if ContinuousClock.now - pulledAt >= source.expires + .seconds(2)
                        || source.jetStream.connection.reconnectCount != pulledOnConnection {
                        try perform(state.idle())
                    }
                    return .idle
                case .message(let message):
                    if let event = try process(message) { return event }
                }
            }
            return nil
        }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}
