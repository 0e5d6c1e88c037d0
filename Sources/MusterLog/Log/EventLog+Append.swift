import Foundation
package import MusterEvents
package import MusterNATS
import Tracing

/// What an append expects of the aggregate's history (optimistic concurrency).
package enum ExpectedVersion: Sendable, Equatable {
    /// No check.
    case any
    /// The aggregate must have no events yet.
    case noEvents
    /// The aggregate's last event must be at this stream sequence.
    case at(UInt64)
}

/// Who and what an append comes from, beyond the payload.
package struct AppendOptions: Sendable {
    /// The client's `Idempotency-Key`; a retry with the same key gives back the first event.
    package var idempotencyKey: String?
    package var expected: ExpectedVersion
    package var actor: String?
    package var traceparent: String?

    package init(idempotencyKey: String? = nil, expected: ExpectedVersion = .any, actor: String? = nil, traceparent: String? = nil) {
        self.idempotencyKey = idempotencyKey
        self.expected = expected
        self.actor = actor
        self.traceparent = traceparent
    }
}

/// Where an appended event landed.
package struct AppendResult: Sendable, Equatable {
    package var sequence: UInt64
    /// True when the idempotency key had been used: nothing new was stored.
    package var duplicate: Bool
    package var eventID: String
    package var subject: String
}

/// An append refused before or by the log, with a code for HTTP mapping.
package struct AppendError: Error, Sendable, CustomStringConvertible {
    /// `full`: the log's store limit is reached; nothing was stored (unlike `unavailable`, where
    /// the write may still arrive).
    package enum Code: String, Sendable { case invalid, tooLarge, conflict, unavailable, full }
    package var code: Code
    package var message: String
    /// For `.invalid` by the payload's own rules: which field of the payload, and why, so a caller
    /// can answer in its own terms without validating the event a second time.
    package var payloadError: EventValidationError?
    package var description: String { message }

    package init(code: Code, message: String, payloadError: EventValidationError? = nil) {
        self.code = code
        self.message = message
        self.payloadError = payloadError
    }
}

extension EventLog {
    /// The envelope names payload fields under `/data`: the payload's own pointer, so a caller can
    /// answer in its own terms; nil for a field of the envelope itself.
    static func payloadError(_ field: String, _ reason: String) -> EventValidationError? {
        field.hasPrefix("/data") ? EventValidationError(field: String(field.dropFirst("/data".count)), reason) : nil
    }

    /// Validates, wraps in an envelope and encodes, ready to publish. Nothing is sent.
    package func prepare<P: EventPayload>(_ payload: P, options: AppendOptions = .init()) throws -> OutgoingMessage {
        try prepareEnvelope(payload, options: options).message
    }

    /// `prepare`, and the envelope the message carries.
    func prepareEnvelope<P: EventPayload>(_ payload: P, options: AppendOptions) throws -> (message: OutgoingMessage, envelope: EventEnvelope<P>) {
        let now = Date() // one clock read for the id's millisecond and the envelope's time
        let envelope = EventEnvelope(id: ids.make(now: now), source: source, time: now, traceparent: options.traceparent ?? EventTrace.traceparent(),
                                     actor: options.actor, data: payload)
        do { try Validate.$measuresScalars.withValue(true) { try envelope.validate() } } catch let error as EventValidationError {
            throw AppendError(code: .invalid, message: "\(P.eventType): \(error)", payloadError: Self.payloadError(error.field, error.reason))
        }
        // The envelope's subject is the aggregate id, read once: some types derive it (a hash).
        let aggregateID = envelope.subject
        // After the payload's rules, which say more precisely what is wrong with an id that makes a bad token.
        guard Subject.isToken(aggregateID) else {
            throw AppendError(code: .invalid, message: "aggregate id \(aggregateID.debugDescription) must be 1-128 letters, digits, - or _")
        }
        let body = try envelope.encodeStored()
        // Checked on the encoded bytes, so every text field of every type is covered; only new
        // events are held to it (stored ones are folded as they were written).
        if let field = body.withUnsafeBytes({ ControlCharacters.firstField(inJSON: $0) }) {
            let reason = "must not contain control characters (tab and newline are allowed)"
            throw AppendError(code: .invalid, message: "\(P.eventType): \(field) \(reason)", payloadError: Self.payloadError(field, reason))
        }
        guard body.count <= configuration.maxEventBytes else {
            throw AppendError(code: .tooLarge, message: "event is \(body.count) bytes; the log takes at most \(configuration.maxEventBytes)")
        }
        var publish = PublishOptions(messageID: options.idempotencyKey.map { "\(P.eventType.family):\($0)" } ?? envelope.id,
                                     expectedStream: configuration.eventsStream)
        switch options.expected {
        case .any: break
        case .noEvents:
            publish.expectedLastSubjectSequence = 0
            publish.expectedLastSubjectFilter = P.eventType.aggregateFilter(aggregateID: aggregateID)
        case .at(let sequence):
            publish.expectedLastSubjectSequence = sequence
            publish.expectedLastSubjectFilter = P.eventType.aggregateFilter(aggregateID: aggregateID)
        }
        var headers = NATSHeaders()
        headers["Muster-Event-Id"] = envelope.id
        // Validated above under the type's schema as it is now: folds need not run the rules again.
        if let digest = P.eventType.validationDigest { headers[EventCatalog.validatedHeader] = digest }
        if let ttl = P.retention.ttlHeader { headers["Nats-TTL"] = ttl }
        let message = OutgoingMessage(subject: P.eventType.subject(aggregateID: aggregateID), headers: headers,
                                      payload: body, options: publish)
        return (message, envelope)
    }

    /// Validates and appends one event; on return it is durably in the log.
    @discardableResult
    package func append<P: EventPayload>(_ payload: P, options: AppendOptions = .init()) async throws -> AppendResult {
        // In a trace (a traced request, or a processor continuing an event's): the append is a span
        // of it, and the event carries that span on to whoever reads it.
        guard InstrumentationContext.current != nil else { return try await publish(payload, options: options) }
        return try await withSpan("append \(P.eventType)", ofKind: .producer) { span in
            let result = try await publish(payload, options: options)
            span.attributes["messaging.destination.name"] = result.subject
            span.attributes["muster.sequence"] = Int(result.sequence)
            return result
        }
    }

    private func publish<P: EventPayload>(_ payload: P, options: AppendOptions) async throws -> AppendResult {
        let (message, envelope) = try prepareEnvelope(payload, options: options)
        // Kept before it is published: this process's folds may be delivered it before the ack is back.
        if P.self is any StoredExactly.Type, catalog.contains(P.eventType), catalog.upcastTarget(of: P.eventType) == nil {
            appended.record(envelope.recorded(sequence: 0, subject: message.subject), subject: message.subject, bytes: message.payload)
        }
        let started = ContinuousClock.now
        do {
            let ack = try await jetStream.publish(message, timeout: configuration.appendTimeout)
            availability.succeeded(startedAt: started)
            return AppendResult(sequence: ack.seq, duplicate: ack.duplicate, eventID: message.headers["Muster-Event-Id"] ?? "",
                                subject: message.subject)
        } catch let error as NATSError {
            availability.failed(startedAt: started, error, isWrite: true)
            throw Self.mapPublishError(error, subject: message.subject)
        }
    }

    static func mapPublishError(_ error: NATSError, subject: String) -> AppendError {
        if error.code == .wrongLastSequence {
            return AppendError(code: .conflict, message: "the aggregate changed since it was read (\(error.message))")
        }
        if LogAvailability.isFull(error) {
            return AppendError(code: .full, message: "the log is full (\(error.message)); nothing was stored")
        }
        return AppendError(code: .unavailable, message: "the log did not take \(subject): \(error)")
    }

    /// Appends many events pipelined (at most `maxInFlight` unacknowledged), in order.
    package func appendAll<P: EventPayload>(_ payloads: [P], options: AppendOptions = .init(), maxInFlight: Int = 4096) async throws -> [Result<AppendResult, AppendError>] {
        try await appendAll(prepared: try payloads.map { try prepare($0, options: options) }, maxInFlight: maxInFlight)
    }

    /// Appends events `prepare` made (a caller that validates a mixed batch item by item first),
    /// pipelined and in order; each result says stored (or a duplicate) or why not.
    package func appendAll(prepared messages: [OutgoingMessage], maxInFlight: Int = 4096) async throws -> [Result<AppendResult, AppendError>] {
        let started = ContinuousClock.now
        let acks: [Result<PubAck, NATSError>]
        do {
            acks = try await jetStream.publishAll(messages, maxInFlight: maxInFlight, ackTimeout: configuration.appendTimeout)
        } catch let error as NATSError {
            availability.failed(startedAt: started, error, isWrite: true)
            throw error
        }
        // A batch that filled the log part way has successes and refusals of one start: the
        // refusals are the news (a success first would make them look older than it).
        let failures = acks.compactMap { ack -> NATSError? in if case .failure(let error) = ack { error } else { nil } }
        if failures.isEmpty {
            availability.succeeded(startedAt: started)
        } else {
            for error in failures { availability.failed(startedAt: started, error, isWrite: true) }
        }
        return zip(messages, acks).map { message, ack in
            ack.map { AppendResult(sequence: $0.seq, duplicate: $0.duplicate, eventID: message.headers["Muster-Event-Id"] ?? "",
                                   subject: message.subject) }
                .mapError { Self.mapPublishError($0, subject: message.subject) }
        }
    }

    /// The stream sequence of an aggregate's last event, or nil when it has none: the version to
    /// pass as `.at(…)` for an optimistic append.
    package func lastSequence(app: String, aggregate: String, id: String) async throws -> UInt64? {
        try await jetStream.lastMessage(stream: configuration.eventsStream, subject: "events.\(app).\(aggregate).\(id).>")?.sequence
    }
}
