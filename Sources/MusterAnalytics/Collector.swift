import Foundation
import MusterEvents
package import MusterLog
import MusterNATS
import MusterRuntime

/// Turns decoded batches into log events: per item, redact, correct the clock, validate; append
/// the good ones pipelined, each with `Nats-Msg-Id` = app + client event id (so a retried batch
/// stores nothing twice); copy each refused one, redacted, to the DLQ with its reason.
///
/// The answer is given only after every good event is acknowledged by the log.
package struct Collector: Sendable {
    package static let maxEvents = 500
    package let log: EventLog
    package let redactor = Redactor()

    package init(log: EventLog) { self.log = log }

    package func collect(_ batch: WireBatch, app: String, actor: String, receivedMillis: Int64) async throws -> CollectAnswer {
        let clock = try Self.clock(sentAt: batch.sentAt, receivedMillis: receivedMillis)
        let context = batch.context.logContext(app: app, redactor: redactor)
        // Measured as the description measures (Unicode scalars), like every new event.
        do { try Validate.$measuresScalars.withValue(true) { try context.validate(field: "/context") } } catch let error as EventValidationError {
            throw BatchError(.unprocessable, "\(WireNames.wireName(error.field)) \(error.reason)")
        }
        let items = batch.events.map { item in
            item.result.mapError { Rejection(error: $0, raw: item.raw) }.flatMap { event in
                Result { Good(payload: try event.logEvent(context: context, clock: clock, redactor: redactor), id: event.id, wire: event) }
                    .mapError { Rejection(error: $0, raw: JSONValue(encoding: event)) }
            }
        }
        return try await store(items, app: app, actor: actor, kind: "events")
    }

    package func collect(_ batch: WireCrashBatch, app: String, actor: String, receivedMillis: Int64) async throws -> CollectAnswer {
        let clock = try Self.clock(sentAt: batch.sentAt, receivedMillis: receivedMillis)
        let items = batch.reports.map { item in
            item.result.mapError { Rejection(error: $0, raw: item.raw) }.flatMap { report in
                Result { Good(payload: try report.logEvent(app: app, clock: clock, redactor: redactor), id: report.id, wire: report) }
                    .mapError { Rejection(error: $0, raw: JSONValue(encoding: report)) }
            }
        }
        return try await store(items, app: app, actor: actor, kind: "reports")
    }

    static func clock(sentAt: String, receivedMillis: Int64) throws -> EventClock {
        guard let clock = EventClock(sentAt: sentAt, receivedMillis: receivedMillis) else {
            throw BatchError(.unprocessable, "sent_at must be an RFC 3339 date-time, like 2026-11-21T14:00:05.120Z")
        }
        return clock
    }

    /// A refused item: why, and what it looked like (for the DLQ, redacted there).
    struct Rejection: Error {
        var error: any Error
        var raw: JSONValue?
    }

    /// An item that became a log event (its rules are checked when the log prepares it).
    struct Good {
        var payload: any EventPayload
        var id: String
        /// As it came, for the DLQ copy should the log refuse it.
        var wire: any Encodable & Sendable
    }

    typealias Item = Result<Good, Rejection>

    private func store(_ items: [Item], app: String, actor: String, kind: String) async throws -> CollectAnswer {
        guard !items.isEmpty else { throw BatchError(.unprocessable, "\(kind) must have 1 to \(Self.maxEvents) items") }
        guard items.count <= Self.maxEvents else {
            // A rule on a body that was read whole (422), not a body too large to read (413).
            throw BatchError(.unprocessable, "a batch holds at most \(Self.maxEvents) \(kind); this one has \(items.count)")
        }
        var messages: [OutgoingMessage] = []
        var rejected: [(answer: CollectAnswer.Rejected, raw: JSONValue)] = []
        for (index, item) in items.enumerated() {
            var rejection: Rejection
            switch item {
            case .success(let good):
                do {
                    messages.append(try prepare(good.payload, key: "\(app):\(good.id)", actor: actor))
                    continue
                } catch {
                    rejection = Rejection(error: error, raw: JSONValue(encoding: good.wire))
                }
            case .failure(let failure):
                rejection = failure
            }
            let raw = rejection.raw?.redacted(by: redactor) ?? .null
            rejected.append((.init(index: index, id: raw.id, reason: Self.reason(rejection.error)), raw))
        }
        let results: [Result<AppendResult, AppendError>]
        do { results = try await log.appendAll(prepared: messages) } catch {
            throw BatchError(.unavailable, "the log did not confirm the batch (\(error))")
        }
        var duplicates = 0
        for result in results {
            switch result {
            case .success(let stored): if stored.duplicate { duplicates += 1 }
            case .failure(let error) where error.code == .full: throw BatchError(.full, "the log is full (\(error))")
            case .failure(let error): throw BatchError(.unavailable, "the log did not confirm the batch (\(error))")
            }
        }
        // Copies of what was refused, for whoever fixes the app; a resent batch files each once.
        let family = kind == "events" ? "analytics" : "crash"
        for (entry, raw) in rejected {
            do {
                try await deadLetter(entry, raw, family: family, app: app, kind: kind)
            } catch {
                throw BatchError(.unavailable, "the log did not confirm the DLQ copy of \(kind)[\(entry.index)] (\(error))")
            }
        }
        return CollectAnswer(accepted: messages.count - duplicates, duplicates: duplicates, rejected: rejected.map(\.answer))
    }

    private func deadLetter(_ entry: CollectAnswer.Rejected, _ raw: JSONValue, family: String, app: String, kind: String) async throws {
        try await log.deadLetter(subject: "events.\(family).rejected.\(app)", payload: try JSONEncoder().encode(raw), originSequence: nil,
                                 consumer: "collector", reason: "\(kind)[\(entry.index)]: \(entry.reason)",
                                 messageID: entry.id.flatMap { id in
                                     // A client's id becomes a header only when it is a plain token.
                                     id.utf8.count <= 64 && Subject.isToken(id) ? "dlq:collector:\(family):\(app):\(id)" : nil
                                 })
    }

    private func prepare<P: EventPayload>(_ payload: P, key: String, actor: String) throws -> OutgoingMessage {
        do {
            return try log.prepare(payload, options: AppendOptions(idempotencyKey: key, actor: actor))
        } catch let error as AppendError {
            throw error.payloadError.map { ItemError(field: WireNames.wireName($0.field), $0.reason) } ?? ItemError(field: "", error.message)
        }
    }

    static func reason(_ error: any Error) -> String {
        switch error {
        case let rejection as Rejection: reason(rejection.error)
        case let error as ItemError: error.field.isEmpty ? error.reason : "\(error.field) \(error.reason)"
        case let error as DecodingError: ErrorBodyMiddleware<MusterRequestContext>.describe(error)
        default: "\(error)"
        }
    }
}

/// A batch refused as a whole.
package struct BatchError: Error, Sendable, CustomStringConvertible {
    package enum Code: Sendable { case badRequest, unprocessable, tooLarge, unavailable, full }
    package var code: Code
    package var message: String
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    package var description: String { message }
}
