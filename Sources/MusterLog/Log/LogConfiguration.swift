/// How the log's streams are set up at start-up.
package struct LogConfiguration: Sendable {
    package var eventsStream = "EVENTS"
    package var dlqStream = "DLQ"
    package var replicas = 1
    /// How long events are kept; nil keeps them forever (the log is the source of truth).
    package var maxAge: Duration? = nil
    /// The most bytes the event stream holds; nil: no limit of its own (the server's store limit).
    /// Full, it refuses new events (`discard: new`): it never drops old ones to make room.
    package var maxBytes: Int64?
    /// How long the DLQ keeps rejected messages.
    package var dlqMaxAge: Duration? = .seconds(90 * 24 * 3600)
    /// The window in which a repeated idempotency key is answered with the first event.
    package var duplicateWindow: Duration = .seconds(24 * 3600)
    /// The largest event the log stores; larger ones are refused before publishing.
    package var maxEventBytes = 256 * 1024
    /// How long an append waits for the log's ack before it is refused (503): the longest a write
    /// takes to answer, however long NATS is away.
    package var appendTimeout: Duration = .seconds(5)

    package init() {}
}
