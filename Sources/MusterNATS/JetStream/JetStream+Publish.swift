import CNats
package import Foundation
import MusterJSON

/// The server's answer to a JetStream publish: where the message landed, and whether the
/// `Nats-Msg-Id` had been seen within the duplicate window (then nothing new was stored).
package struct PubAck: Decodable, Sendable, Equatable {
    package var stream: String
    package var seq: UInt64
    package var duplicate: Bool

    package init(stream: String, seq: UInt64, duplicate: Bool = false) {
        self.stream = stream
        self.seq = seq
        self.duplicate = duplicate
    }

    enum CodingKeys: String, CodingKey { case stream, seq, duplicate }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        stream = try c.decode(String.self, forKey: .stream)
        seq = try c.decode(UInt64.self, forKey: .seq)
        duplicate = try c.decodeIfPresent(Bool.self, forKey: .duplicate) ?? false
    }

    /// Reads an ack through the byte-level JSON reader (an ack is read per event appended), and
    /// through the JSON decoder with its error mapping when it is not a plain ack.
    static func parse(_ message: NATSMessage) throws -> PubAck {
        if message.status == nil, let ack = fastParse(message.payload) { return ack }
        return try JetStream.decode(PubAck.self, from: message, context: "publish")
    }

    /// What the reply to a pipelined publish on `subject` says: its ack, or why there is none.
    static func result(of reply: Result<NATSMessage, NATSError>, subject: String) -> Result<PubAck, NATSError> {
        switch reply {
        case .failure(let error):
            return .failure(error) // it never left: the queue was full or the connection closed
        case .success(let reply) where reply.status == 503:
            return .failure(NATSError(.noResponders, "no stream takes subject \(subject)"))
        case .success(let reply):
            do { return .success(try parse(reply)) } catch let error as NATSError { return .failure(error) } catch {
                return .failure(NATSError(.badReply, "\(error)"))
            }
        }
    }

    /// `{"stream":"S", "seq":N}` with any spacing and order, `duplicate` and other members
    /// (`domain`) allowed; nil for anything else (an error answer).
    static func fastParse(_ payload: Data) -> PubAck? {
        let ack = try? payload.withUnsafeBytes { raw in
            try JSONBytesDecoder().withFields(of: raw) { fields -> PubAck? in
                guard try fields.object("error") == nil, let stream = try fields.string("stream"),
                      let seq = try fields.int("seq"), seq > 0 else { return nil }
                return PubAck(stream: stream, seq: UInt64(seq), duplicate: try fields.bool("duplicate") ?? false)
            }
        }
        return ack ?? nil
    }
}

/// Headers that make a JetStream publish idempotent and optimistic.
package struct PublishOptions: Sendable, Hashable {
    /// `Nats-Msg-Id`: a repeat within the stream's duplicate window is acknowledged, not stored.
    package var messageID: String?
    /// `Nats-Expected-Last-Subject-Sequence`: the last sequence on `expectedLastSubjectFilter`
    /// (or on the subject itself) must be this, else the publish fails with `wrongLastSequence`.
    package var expectedLastSubjectSequence: UInt64?
    /// `Nats-Expected-Last-Subject-Sequence-Subject` (server ≥ 2.11): a wildcard whose last
    /// sequence is checked instead of the exact subject's, say every event of one aggregate.
    package var expectedLastSubjectFilter: String?
    /// `Nats-Expected-Stream`.
    package var expectedStream: String?

    package init(messageID: String? = nil, expectedLastSubjectSequence: UInt64? = nil,
                expectedLastSubjectFilter: String? = nil, expectedStream: String? = nil) {
        self.messageID = messageID
        self.expectedLastSubjectSequence = expectedLastSubjectSequence
        self.expectedLastSubjectFilter = expectedLastSubjectFilter
        self.expectedStream = expectedStream
    }

    /// Sets the headers on a libnats message (in place: no copy of the message's own headers).
    func apply(to msg: OpaquePointer) throws {
        func set(_ name: String, _ value: String?) throws {
            guard let value else { return }
            try check(natsMsgHeader_Set(msg, name, value), "set header \(name)")
        }
        try set("Nats-Msg-Id", messageID)
        try set("Nats-Expected-Last-Subject-Sequence", expectedLastSubjectSequence.map(String.init))
        try set("Nats-Expected-Last-Subject-Sequence-Subject", expectedLastSubjectFilter)
        try set("Nats-Expected-Stream", expectedStream)
    }
}

/// One message to publish to JetStream.
package struct OutgoingMessage: Sendable {
    package var subject: String
    package var headers: NATSHeaders
    package var payload: Data
    package var options: PublishOptions

    package init(subject: String, headers: NATSHeaders = .init(), payload: Data, options: PublishOptions = .init()) {
        self.subject = subject
        self.headers = headers
        self.payload = payload
        self.options = options
    }
}

extension JetStream {
    /// Publishes one message and waits for the server's ack: on return it is stored durably.
    package func publish(_ message: OutgoingMessage, timeout: Duration = .seconds(5)) async throws -> PubAck {
        let reply = try await connection.replies.request(timeout: timeout) { replyTo, token in
            try connection.publish(message, replyTo: replyTo, token: token)
        }
        if reply.status == 503 {
            throw NATSError(.noResponders, "no stream takes subject \(message.subject)")
        }
        return try PubAck.parse(reply)
    }
}
