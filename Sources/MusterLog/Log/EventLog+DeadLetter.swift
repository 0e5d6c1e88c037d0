package import Foundation
import MusterNATS

/// Headers that say why a message is in the DLQ.
package enum DeadLetterHeader {
    package static let reason = "Muster-DLQ-Reason"
    package static let originSubject = "Muster-DLQ-Origin-Subject"
    package static let originSequence = "Muster-DLQ-Origin-Sequence"
    package static let consumer = "Muster-DLQ-Consumer"
}

extension EventLog {
    /// Copies a rejected or poison message into `DLQ` with the reason in headers. Idempotent per
    /// consumer and origin sequence, so a consumer that meets the same poison after a restart
    /// does not file it twice. Without an origin sequence, `messageID` (when given) plays that part.
    package func deadLetter(subject: String, payload: Data, originSequence: UInt64?, consumer: String, reason: String,
                           messageID: String? = nil) async throws {
        var headers = NATSHeaders()
        // Header values are single lines; keep the reason readable and bounded.
        headers[DeadLetterHeader.reason] = String(reason.replacingOccurrences(of: "\r", with: " ")
            .replacingOccurrences(of: "\n", with: " ").prefix(1000))
        headers[DeadLetterHeader.originSubject] = subject
        if let originSequence { headers[DeadLetterHeader.originSequence] = String(originSequence) }
        headers[DeadLetterHeader.consumer] = consumer
        let tail = subject.hasPrefix("events.") ? String(subject.dropFirst("events.".count)) : "other"
        let id = originSequence.map { "dlq:\(consumer):\($0)" } ?? messageID ?? "dlq:\(consumer):\(UUID().uuidString)"
        _ = try await jetStream.publish(OutgoingMessage(subject: "dlq.\(consumer).\(tail)", headers: headers, payload: payload,
                                                        options: .init(messageID: id)))
    }
}
