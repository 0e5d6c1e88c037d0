/// A consumer's configuration: the subset Muster sets, in the JetStream API's shape.
package struct ConsumerConfig: Codable, Sendable {
    package enum DeliverPolicy: String, Codable, Sendable {
        case all, last, new
        case byStartSequence = "by_start_sequence"
        case lastPerSubject = "last_per_subject"
    }
    package enum AckPolicy: String, Codable, Sendable { case none, all, explicit }

    package var durableName: String?
    package var name: String?
    package var description: String?
    package var deliverPolicy: DeliverPolicy = .all
    package var optStartSeq: UInt64?
    package var ackPolicy: AckPolicy = .explicit
    /// Nanoseconds before an unacknowledged message is delivered again.
    package var ackWait: Int64?
    package var maxDeliver: Int?
    package var maxAckPending: Int?
    package var maxWaiting: Int?
    package var filterSubject: String?
    package var filterSubjects: [String]?
    /// Nanoseconds of inactivity after which the server removes the consumer (for scratch consumers).
    package var inactiveThreshold: Int64?
    package var numReplicas: Int?
    package var memStorage: Bool?

    package init(durableName: String) {
        self.durableName = durableName
        self.name = durableName
    }
}

package struct ConsumerInfo: Codable, Sendable {
    package struct SequenceInfo: Codable, Sendable {
        package var consumerSeq: UInt64
        package var streamSeq: UInt64
    }
    package var streamName: String
    package var name: String
    package var config: ConsumerConfig
    package var delivered: SequenceInfo
    package var ackFloor: SequenceInfo
    package var numAckPending: Int
    package var numPending: UInt64
}

extension JetStream {
    /// Creates a durable consumer explicitly (libnats deletes the consumers it auto-creates when
    /// their subscription goes), or returns the existing one when its configuration is the same.
    @discardableResult
    package func ensureConsumer(stream: String, _ config: ConsumerConfig) async throws -> ConsumerInfo {
        struct Request: Encodable { var streamName: String; var config: ConsumerConfig }
        guard let name = config.durableName ?? config.name else {
            throw NATSError(.jetStreamAPI, "a durable consumer needs a name")
        }
        return try await call("CONSUMER.CREATE.\(stream).\(name)", Request(streamName: stream, config: config), as: ConsumerInfo.self)
    }

    package func consumerInfo(stream: String, name: String) async throws -> ConsumerInfo {
        try await call("CONSUMER.INFO.\(stream).\(name)", Empty(), as: ConsumerInfo.self)
    }

    /// Deletes a consumer; true when it existed.
    @discardableResult
    package func deleteConsumer(stream: String, name: String) async throws -> Bool {
        struct Deleted: Decodable { var success: Bool }
        do {
            return try await call("CONSUMER.DELETE.\(stream).\(name)", Empty(), as: Deleted.self).success
        } catch let error as NATSError where error.code == .notFound {
            return false
        }
    }
}
