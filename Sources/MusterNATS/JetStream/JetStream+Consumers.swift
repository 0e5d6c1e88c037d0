/// A consumer's configuration: the subset Muster sets, in the JetStream API's shape.
public struct ConsumerConfig: Codable, Sendable {
    public enum DeliverPolicy: String, Codable, Sendable {
        case all, last, new
        case byStartSequence = "by_start_sequence"
        case lastPerSubject = "last_per_subject"
    }
    public enum AckPolicy: String, Codable, Sendable { case none, all, explicit }

    public var durableName: String?
    public var name: String?
    public var description: String?
    public var deliverPolicy: DeliverPolicy = .all
    public var optStartSeq: UInt64?
    public var ackPolicy: AckPolicy = .explicit
    /// Nanoseconds before an unacknowledged message is delivered again.
    public var ackWait: Int64?
    public var maxDeliver: Int?
    public var maxAckPending: Int?
    public var maxWaiting: Int?
    public var filterSubject: String?
    public var filterSubjects: [String]?
    /// Nanoseconds of inactivity after which the server removes the consumer (for scratch consumers).
    public var inactiveThreshold: Int64?
    public var numReplicas: Int?
    public var memStorage: Bool?

    public init(durableName: String) {
        self.durableName = durableName
        self.name = durableName
    }
}

public struct ConsumerInfo: Codable, Sendable {
    public struct SequenceInfo: Codable, Sendable {
        public var consumerSeq: UInt64
        public var streamSeq: UInt64
    }
    public var streamName: String
    public var name: String
    public var config: ConsumerConfig
    public var delivered: SequenceInfo
    public var ackFloor: SequenceInfo
    public var numAckPending: Int
    public var numPending: UInt64
}

extension JetStream {
    /// Creates a durable consumer explicitly (libnats deletes the consumers it auto-creates when
    /// their subscription goes), or returns the existing one when its configuration is the same.
    @discardableResult
    public func ensureConsumer(stream: String, _ config: ConsumerConfig) async throws -> ConsumerInfo {
        struct Request: Encodable { var streamName: String; var config: ConsumerConfig }
        guard let name = config.durableName ?? config.name else {
            throw NATSError(.jetStreamAPI, "a durable consumer needs a name")
        }
        return try await call("CONSUMER.CREATE.\(stream).\(name)", Request(streamName: stream, config: config), as: ConsumerInfo.self)
    }

    public func consumerInfo(stream: String, name: String) async throws -> ConsumerInfo {
        try await call("CONSUMER.INFO.\(stream).\(name)", Empty(), as: ConsumerInfo.self)
    }

    /// Deletes a consumer; true when it existed.
    @discardableResult
    public func deleteConsumer(stream: String, name: String) async throws -> Bool {
        struct Deleted: Decodable { var success: Bool }
        do {
            return try await call("CONSUMER.DELETE.\(stream).\(name)", Empty(), as: Deleted.self).success
        } catch let error as NATSError where error.code == .notFound {
            return false
        }
    }
}
