import CNats

/// An error from the NATS layer: a stable code plus a human-readable message.
package struct NATSError: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        let raw: String
        package static let libnats = Code(raw: "libnats")
        package static let timeout = Code(raw: "timeout")
        package static let noResponders = Code(raw: "noResponders")
        package static let closed = Code(raw: "closed")
        package static let jetStreamAPI = Code(raw: "jetStreamAPI")
        package static let wrongLastSequence = Code(raw: "wrongLastSequence")
        package static let badReply = Code(raw: "badReply")
        package static let notFound = Code(raw: "notFound")
        /// Refused before it was sent: too much waits to go to a server that is not taking it.
        package static let unavailable = Code(raw: "unavailable")
        /// The connection was lost while the request waited: it may or may not have arrived.
        package static let disconnected = Code(raw: "disconnected")
        package var description: String { raw }
    }

    package let code: Code
    package let message: String
    /// The JetStream API error code (`err_code`), when the server gave one.
    package let apiErrorCode: Int?

    package init(_ code: Code, _ message: String, apiErrorCode: Int? = nil) {
        self.code = code
        self.message = message
        self.apiErrorCode = apiErrorCode
    }

    package var description: String { "\(code): \(message)" }

    /// The cluster may answer differently in a moment: no JetStream leader yet (a cluster that is
    /// starting or electing one), no peers for a replicated stream yet (nodes still joining), or
    /// no answer in time. A cluster too small for the replicas asked gives the same "no peers"
    /// for good: a caller retries for a bounded time only.
    package var isTransient: Bool {
        code == .timeout || code == .noResponders || code == .unavailable || code == .disconnected
            || apiErrorCode == 10008 // JetStream system temporarily unavailable
            || apiErrorCode == 10005 // no suitable peers for placement
    }

    /// Wraps a libnats status, with the library's thread-local last error text where it has one.
    static func status(_ status: natsStatus, _ context: String) -> NATSError {
        let text = String(cString: natsStatus_GetText(status))
        var detail = ""
        var lastStatus = NATS_OK
        if let last = nats_GetLastError(&lastStatus), lastStatus == status {
            detail = String(cString: last)
        }
        if status == NATS_TIMEOUT { return NATSError(.timeout, "\(context): \(text)") }
        if status == NATS_NO_RESPONDERS { return NATSError(.noResponders, "\(context): \(text)") }
        if status == NATS_CONNECTION_CLOSED { return NATSError(.closed, "\(context): \(text)") }
        return NATSError(.libnats, "\(context): \(text)\(detail.isEmpty || detail == text ? "" : " (\(detail))")")
    }
}

/// Throws a `NATSError` unless libnats answered `NATS_OK`.
@inline(__always)
func check(_ status: natsStatus, _ context: @autoclosure () -> String) throws {
    if status != NATS_OK { throw NATSError.status(status, context()) }
}
