import Foundation
package import Logging
package import MusterEvents
import MusterNATS
import ServiceLifecycle

/// Reacts to events with side effects (geocode a submission, run moderation checks), at least
/// once: a durable consumer with explicit acks. An event is acknowledged after its handler
/// succeeded; a failing handler is retried with backoff, and after `maxDeliveries` attempts the
/// event goes to the DLQ with the reason, so one poison event never stops the rest.
///
/// Handlers must be idempotent (they append with idempotency keys), since a crash between the
/// handler's append and the ack delivers the event again.
package struct EventProcessor: Service {
    package let name: String
    package let filterSubjects: [String]
    package let log: EventLog
    package var maxDeliveries = 5
    package var batch = 64
    /// How many aggregates' events are handled side by side (1: one event at a time). Events of
    /// one aggregate (`events.<app>.<aggregate>.<id>`) always go one after another, in log order.
    package var lanes = 1
    let logger: Logger
    let handler: @Sendable (RecordedEvent) async throws -> Void

    /// - Parameter name: names the durable consumer (`proc_<name>`), shared by every instance of
    ///   the service, so each event is handled by one of them.
    package init(name: String, filterSubjects: [String], log: EventLog, logger: Logger,
                handler: @escaping @Sendable (RecordedEvent) async throws -> Void) {
        self.name = name
        self.filterSubjects = filterSubjects
        self.log = log
        var logger = logger
        logger[metadataKey: "processor"] = "\(name)"
        self.logger = logger
        self.handler = handler
    }

    package var consumerName: String { "proc_\(name)" }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await runUntilCancelled() }
    }

    /// Handles events until cancelled, on the fold threads (never on the event loops HTTP is served on).
    package func runUntilCancelled() async {
        await onFoldThreads { await handleUntilCancelled() }
    }

    private func handleUntilCancelled() async {
        var stall = Stall("processor")
        while !Task.isCancelled {
            do {
                try await consume { stall.resumed(logger: logger) }
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                stall.failed(error, logger: logger)
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Reads and handles events until an error; `started` once its consumer is in place.
    func consume(started: () -> Void = {}) async throws {
        var config = ConsumerConfig(durableName: consumerName)
        config.description = "processor \(name)"
        config.ackPolicy = .explicit
        config.ackWait = 30_000_000_000
        config.maxDeliver = maxDeliveries + 1 // the last delivery only sends the event to the DLQ
        config.filterSubjects = filterSubjects
        config.numReplicas = log.configuration.replicas
        _ = try await log.jetStream.ensureConsumer(stream: log.configuration.eventsStream, config)
        started()
        var iterator = PullConsumer(log.jetStream, stream: log.configuration.eventsStream, consumer: consumerName,
                                    batch: batch, expires: .seconds(30), idleAfter: .seconds(1)).makeAsyncIterator()
        var warnings = WarningThrottle(interval: .seconds(10))
        while !Task.isCancelled {
            switch try await iterator.nextBatch(max: batch) {
            case nil: return
            case .idle: continue
            case .messages(let messages) where lanes <= 1 || messages.count == 1:
                for message in messages {
                    try Task.checkCancellation() // shutting down: the rest are redelivered to the next run
                    if let retry = try await handle(message) { retry.warn(logger, &warnings) }
                }
            case .messages(let messages):
                let retries = try await handleSideBySide(messages)
                for retry in retries { retry.warn(logger, &warnings) }
            }
        }
    }

    /// Handles a batch `lanes` aggregates at a time, each aggregate's events in order; the
    /// retries its handlers asked for.
    func handleSideBySide(_ messages: [JetStreamMessage]) async throws -> [Retry] {
        var order: [Substring] = [], byAggregate: [Substring: [JetStreamMessage]] = [:]
        for message in messages {
            let key = Self.aggregate(of: message.subject)
            if byAggregate[key] == nil { order.append(key) }
            byAggregate[key, default: []].append(message)
        }
        return try await withThrowingTaskGroup(of: [Retry].self) { group in
            var retries: [Retry] = [], running = 0
            for key in order {
                if running == lanes, let done = try await group.next() {
                    retries += done
                    running -= 1
                }
                let lane = byAggregate[key] ?? []
                group.addTask {
                    var retries: [Retry] = []
                    for message in lane {
                        try Task.checkCancellation()
                        if let retry = try await handle(message) { retries.append(retry) }
                    }
                    return retries
                }
                running += 1
            }
            for try await done in group { retries += done }
            return retries
        }
    }

    /// `events.<app>.<aggregate>.<id>`: the part of a subject that names one aggregate.
    static func aggregate(of subject: String) -> Substring {
        var dots = 0
        for index in subject.indices where subject[index] == "." {
            dots += 1
            if dots == 4 { return subject[..<index] }
        }
        return subject[...]
    }

    /// A handler's failure, to be retried after `delay`: logged by the consumer's loop (at most
    /// once per interval, however many lanes failed).
    struct Retry: Sendable {
        let sequence: UInt64
        let error: String
        let delay: Duration

        func warn(_ logger: Logger, _ warnings: inout WarningThrottle) {
            // A cause that fails every event (a gazetteer still loading) is said once per interval, not per event.
            guard let suppressed = warnings.allow() else { return }
            logger.warning("handler failed; retrying", metadata: ["sequence": "\(sequence)", "error": "\(error)", "retryIn": "\(delay)",
                                                                 "sameWarningsSuppressed": "\(suppressed)"])
        }
    }

    /// Handles one event; a retry when its handler failed and it was handed back for later.
    func handle(_ message: JetStreamMessage) async throws -> Retry? {
        let sequence = message.delivery.streamSequence
        let event: RecordedEvent
        do {
            event = try log.catalog.decode(subject: message.subject, sequence: sequence, payload: message.payload,
                                           validated: message.header(EventCatalog.validatedHeader))
        } catch {
            try await deadLetter(message, reason: "\(error)")
            return nil
        }
        do {
            try await EventTrace.span("process \(consumerName)", traceparent: event.traceparent) { try await handler(event) }
            try message.ack()
            return nil
        } catch let error where error is CancellationError || Task.isCancelled {
            // Shutting down is not a failure of the event: hand it back at once, never retry it
            // here (that kept a SIGTERM waiting for the whole grace period).
            try? message.nak()
            throw CancellationError()
        } catch {
            if message.delivery.deliveryCount >= UInt64(maxDeliveries) {
                try await deadLetter(message, reason: "gave up after \(maxDeliveries) attempts: \(error)")
                return nil
            }
            let delay = Duration.seconds(1 << min(Int(message.delivery.deliveryCount), 6))
            try message.nak(delay: delay)
            return Retry(sequence: sequence, error: "\(error)", delay: delay)
        }
    }

    /// Runs the handler again on the event at `sequence` (one it sent to the DLQ, once the cause
    /// is fixed), read from the log itself: the copy in the DLQ is for reading, the log is the truth.
    package func replay(sequence: UInt64) async throws {
        let stored = try await log.jetStream.getMessage(stream: log.configuration.eventsStream, sequence: sequence)
        let event = try log.catalog.decode(subject: stored.subject, sequence: sequence, payload: stored.payload,
                                           validated: stored.headers[EventCatalog.validatedHeader])
        try await EventTrace.span("replay \(consumerName)", traceparent: event.traceparent) { try await handler(event) }
        logger.notice("dead letter replayed", metadata: ["sequence": "\(sequence)"])
    }

    private func deadLetter(_ message: JetStreamMessage, reason: String) async throws {
        try await log.deadLetter(subject: message.subject, payload: message.payload, originSequence: message.delivery.streamSequence,
                                 consumer: consumerName, reason: reason)
        try message.term(reason: "sent to DLQ")
        logger.warning("event sent to DLQ", metadata: ["sequence": "\(message.delivery.streamSequence)", "reason": "\(reason)"])
    }
}

/// At most one line per `interval` for a warning that repeats; those in between are counted and
/// the count goes with the next line.
struct WarningThrottle {
    let interval: Duration
    private var last: ContinuousClock.Instant?
    private var suppressed = 0

    init(interval: Duration) { self.interval = interval }

    /// The number suppressed since the last line when this one may be logged, else nil.
    mutating func allow(now: ContinuousClock.Instant = .now) -> Int? {
        if let last, now - last < interval {
            suppressed += 1
            return nil
        }
        defer {
            suppressed = 0
            last = now
        }
        return suppressed
    }
}
