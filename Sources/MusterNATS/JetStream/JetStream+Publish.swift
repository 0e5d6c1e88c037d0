public import Foundation

/// The server's answer to a JetStream publish: where the message landed, and whether the
/// `Nats-Msg-Id` had been seen within the duplicate window (then nothing new was stored).
public struct PubAck: Decodable, Sendable, Equatable {
    public var stream: String
    public var seq: UInt64
    public var duplicate: Bool

    public init(stream: String, seq: UInt64, duplicate: Bool = false) {
        self.stream = stream
        self.seq = seq
        self.duplicate = duplicate
    }

    enum CodingKeys: String, CodingKey { case stream, seq, duplicate }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        stream = try c.decode(String.self, forKey: .stream)
        seq = try c.decode(UInt64.self, forKey: .seq)
        duplicate = try c.decodeIfPresent(Bool.self, forKey: .duplicate) ?? false
    }

    /// Reads an ack, taking the fast path for the common `{"stream":"S","seq":N[,"duplicate":true]}`
    /// shape and the JSON decoder (with its error mapping) for anything else.
    static func parse(_ message: NATSMessage) throws -> PubAck {
        if let ack = fastParse(message.payload) { return ack }
        return try JetStream.decode(PubAck.self, from: message, context: "publish")
    }

    static func fastParse(_ payload: Data) -> PubAck? {
        payload.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> PubAck? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let prefix = Array(#"{"stream":""#.utf8)
            guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
            var i = prefix.count
            let nameStart = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
            let seqKey = Array(#"","seq":"#.utf8)
            guard i + seqKey.count < bytes.count, bytes[i..<(i + seqKey.count)].elementsEqual(seqKey) else { return nil }
            i += seqKey.count
            var seq: UInt64 = 0
            var digits = 0
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                seq = seq &* 10 &+ UInt64(bytes[i] - 48); i += 1; digits += 1
            }
            guard digits > 0, i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "}") { return PubAck(stream: name, seq: seq) }
            let dup = Array(#","duplicate":true}"#.utf8)
            if bytes.count - i >= dup.count, bytes[i..<(i + dup.count)].elementsEqual(dup) {
                return PubAck(stream: name, seq: seq, duplicate: true)
            }
            return nil // other fields (domain, value): take the decoder
        }
    }
}

/// Headers that make a JetStream publish idempotent and optimistic.
public struct PublishOptions: Sendable, Hashable {
    /// `Nats-Msg-Id`: a repeat within the stream's duplicate window is acknowledged, not stored.
    public var messageID: String?
    /// `Nats-Expected-Last-Subject-Sequence`: the last sequence on `expectedLastSubjectFilter`
    /// (or on the subject itself) must be this, else the publish fails with `wrongLastSequence`.
    public var expectedLastSubjectSequence: UInt64?
    /// `Nats-Expected-Last-Subject-Sequence-Subject` (server ≥ 2.11): a wildcard whose last
    /// sequence is checked instead of the exact subject's, say every event of one aggregate.
    public var expectedLastSubjectFilter: String?
    /// `Nats-Expected-Stream`.
    public var expectedStream: String?

    public init(messageID: String? = nil, expectedLastSubjectSequence: UInt64? = nil,
                expectedLastSubjectFilter: String? = nil, expectedStream: String? = nil) {
        self.messageID = messageID
        self.expectedLastSubjectSequence = expectedLastSubjectSequence
        self.expectedLastSubjectFilter = expectedLastSubjectFilter
        self.expectedStream = expectedStream
    }

    func apply(to headers: inout NATSHeaders) {
        if let messageID { headers["Nats-Msg-Id"] = messageID }
        if let expectedLastSubjectSequence { headers["Nats-Expected-Last-Subject-Sequence"] = String(expectedLastSubjectSequence) }
        if let expectedLastSubjectFilter { headers["Nats-Expected-Last-Subject-Sequence-Subject"] = expectedLastSubjectFilter }
        if let expectedStream { headers["Nats-Expected-Stream"] = expectedStream }
    }
}

/// One message to publish to JetStream.
public struct OutgoingMessage: Sendable {
    public var subject: String
    public var headers: NATSHeaders
    public var payload: Data
    public var options: PublishOptions

    public init(subject: String, headers: NATSHeaders = .init(), payload: Data, options: PublishOptions = .init()) {
        self.subject = subject
        self.headers = headers
        self.payload = payload
        self.options = options
    }
}

extension JetStream {
    /// Publishes one message and waits for the server's ack: on return it is stored durably.
    public func publish(_ message: OutgoingMessage, timeout: Duration = .seconds(5)) async throws -> PubAck {
        var headers = message.headers
        message.options.apply(to: &headers)
        let reply = try await connection.replies.request(timeout: timeout) { replyTo in
            try connection.publish(message.subject, headers: headers, payload: message.payload, replyTo: replyTo)
        }
        if reply.status == 503 {
            throw NATSError(.noResponders, "no stream takes subject \(message.subject)")
        }
        return try PubAck.parse(reply)
    }
}
