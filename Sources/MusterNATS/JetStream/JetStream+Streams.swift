package import Foundation

/// A stream's configuration: the subset Muster sets, in the JetStream API's shape.
package struct StreamConfig: Codable, Sendable, Equatable {
    package enum Retention: String, Codable, Sendable { case limits, interest, workqueue }
    package enum Storage: String, Codable, Sendable { case file, memory }
    package enum Discard: String, Codable, Sendable { case old, new }

    package var name: String
    package var subjects: [String]
    package var retention: Retention = .limits
    package var storage: Storage = .file
    package var numReplicas: Int = 1
    /// Nanoseconds; 0 keeps messages forever.
    package var maxAge: Int64 = 0
    package var maxBytes: Int64 = -1
    package var maxMsgs: Int64 = -1
    package var maxMsgsPerSubject: Int64 = -1
    package var maxMsgSize: Int32 = -1
    package var discard: Discard = .old
    /// Nanoseconds in which a repeated `Nats-Msg-Id` is recognised as a duplicate.
    package var duplicateWindow: Int64 = 120_000_000_000
    package var allowRollupHdrs: Bool = false
    package var allowDirect: Bool = false
    package var denyDelete: Bool = false
    package var denyPurge: Bool = false
    /// Messages may carry a `Nats-TTL` header (nats-server 2.11); once on, it stays on.
    package var allowMsgTtl: Bool = false

    package init(name: String, subjects: [String]) {
        self.name = name
        self.subjects = subjects
    }
}

package struct StreamState: Codable, Sendable {
    package var messages: UInt64
    package var bytes: UInt64
    package var firstSeq: UInt64
    package var lastSeq: UInt64
    /// Messages removed inside the range (expired, deleted); nil when none.
    package var numDeleted: UInt64?
}

package struct StreamInfo: Codable, Sendable {
    package var config: StreamConfig
    package var state: StreamState
    /// Present when the stream lives on a cluster.
    package var cluster: ClusterInfo?
}

/// Where a replicated stream's copies are: its leader's server name and the other replicas.
package struct ClusterInfo: Codable, Sendable {
    package struct Peer: Codable, Sendable {
        package var name: String
        /// The replica has caught up with the leader.
        package var current: Bool
        /// How many operations the replica is behind the leader.
        package var lag: UInt64?
    }

    package var name: String?
    package var leader: String?
    package var replicas: [Peer]?
}

/// A message read back from a stream by sequence or by last subject.
package struct StoredMessage: Sendable {
    package var subject: String
    package var sequence: UInt64
    package var headers: NATSHeaders
    package var payload: Data
}

extension JetStream {
    /// Creates the stream, or (with `updating`) brings an existing one to `config`, except that
    /// its replicas never go down here: one process started without the deployment's replica
    /// setting (an operator's CLI, a service missing the variable) would otherwise take a
    /// replicated log down to one copy, and another bring it back up, while it takes writes.
    /// Fewer copies is an operator's decision, made with the nats CLI. Likewise a byte limit left
    /// unset (-1) keeps the one the stream has: a limit given to one service (MUSTER_LOG_MAX_BYTES)
    /// is not undone by another started without it. Without `updating`, an existing stream is
    /// left as it is, whatever its settings.
    @discardableResult
    package func ensureStream(_ config: StreamConfig, updating: Bool = true) async throws -> StreamInfo {
        do {
            return try await call("STREAM.CREATE.\(config.name)", config, as: StreamInfo.self)
        } catch let error as NATSError where error.apiErrorCode == 10058 {
            // "stream name already in use with a different configuration"
            let existing = try await streamInfo(config.name)
            var wanted = config
            wanted.numReplicas = max(config.numReplicas, existing.config.numReplicas)
            if config.maxBytes < 0 { wanted.maxBytes = existing.config.maxBytes }
            guard updating, wanted != existing.config else { return existing }
            return try await call("STREAM.UPDATE.\(config.name)", wanted, as: StreamInfo.self)
        }
    }

    package func streamInfo(_ name: String) async throws -> StreamInfo {
        try await call("STREAM.INFO.\(name)", Empty(), as: StreamInfo.self)
    }

    package func deleteStream(_ name: String) async throws {
        struct Deleted: Decodable { var success: Bool }
        _ = try await call("STREAM.DELETE.\(name)", Empty(), as: Deleted.self)
    }

    /// Deletes one message. With `erase` (the default) the server overwrites its bytes on disk with
    /// random data instead of only marking them deleted: what was stored is gone from the files.
    package func deleteMessage(stream: String, sequence: UInt64, erase: Bool = true) async throws {
        struct Request: Encodable { var seq: UInt64; var noErase: Bool }
        struct Deleted: Decodable { var success: Bool }
        _ = try await call("STREAM.MSG.DELETE.\(stream)", Request(seq: sequence, noErase: !erase), as: Deleted.self)
    }

    /// Removes every message on `subject` from the stream (one request, however many there are);
    /// answers how many went.
    @discardableResult
    package func purge(stream: String, subject: String) async throws -> UInt64 {
        struct Request: Encodable { var filter: String }
        struct Purged: Decodable { var success: Bool; var purged: UInt64? }
        return try await call("STREAM.PURGE.\(stream)", Request(filter: subject), as: Purged.self).purged ?? 0
    }

    /// Reads one stored message: by sequence, or the last one on a subject.
    package func getMessage(stream: String, sequence: UInt64? = nil, lastBySubject: String? = nil) async throws -> StoredMessage {
        struct Request: Encodable { var seq: UInt64?; var lastBySubj: String? }
        struct Response: Decodable {
            struct Message: Decodable { var subject: String; var seq: UInt64; var hdrs: String?; var data: String? }
            var message: Message
        }
        let response = try await call("STREAM.MSG.GET.\(stream)", Request(seq: sequence, lastBySubj: lastBySubject), as: Response.self)
        var headers = NATSHeaders()
        if let raw = response.message.hdrs, let data = Data(base64Encoded: raw) {
            headers = parseHeaderBlock(String(decoding: data, as: UTF8.self))
        }
        return StoredMessage(subject: response.message.subject, sequence: response.message.seq, headers: headers,
                             payload: response.message.data.flatMap { Data(base64Encoded: $0) } ?? Data())
    }
}

extension JetStream {
    /// The last message on `subject`, asked of the stream's leader (`getMessage`); nil when the
    /// subject has none.
    package func lastMessage(stream: String, subject: String) async throws -> StoredMessage? {
        do {
            return try await getMessage(stream: stream, lastBySubject: subject)
        } catch let error as NATSError where error.code == .notFound || error.apiErrorCode == 10037 {
            return nil
        }
    }

    /// The last message on `subject`, read with JetStream's direct get (`$JS.API.DIRECT.GET`, for
    /// streams that allow it): the message comes back as it is stored, headers and payload, with no
    /// JSON answer to build and decode and no base64 either way. Nil when the subject has none.
    /// Any of a replicated stream's servers may answer: what it has applied so far.
    package func directGet(stream: String, lastBySubject subject: String) async throws -> StoredMessage? {
        let reply: NATSMessage
        do {
            reply = try await connection.request("$JS.API.DIRECT.GET.\(stream).\(subject)", timeout: apiTimeout)
        } catch let error as NATSError where error.code == .noResponders {
            // A stream made before it allowed direct gets: its leader answers the API call.
            return try await lastMessage(stream: stream, subject: subject)
        }
        if let status = reply.status {
            if status == 404 { return nil }
            throw NATSError(.jetStreamAPI, "DIRECT.GET.\(stream): \(status) \(reply.statusDescription ?? "")")
        }
        let headers = reply.headers
        guard let sequence = headers["Nats-Sequence"].flatMap({ UInt64($0) }) else {
            throw NATSError(.badReply, "DIRECT.GET.\(stream): an answer without Nats-Sequence")
        }
        return StoredMessage(subject: headers["Nats-Subject"] ?? subject, sequence: sequence, headers: headers, payload: reply.payload)
    }
}

/// Parses a `NATS/1.0` header block as stored by JetStream.
func parseHeaderBlock(_ text: String) -> NATSHeaders {
    var headers = NATSHeaders()
    for line in text.split(separator: "\r\n").dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return headers
}

extension JetStream {
    /// Asks for the account's JetStream usage (`$JS.API.INFO`). In a cluster only the meta leader
    /// answers it, and a server without one answers 10008: an answer means the server this
    /// connection is on reaches the cluster's majority, whatever state a stream is in.
    package func reachesMetaLeader() async -> Bool {
        struct AccountInfo: Decodable { var streams: Int? }
        return (try? await call("INFO", Empty(), as: AccountInfo.self)) != nil
    }
}
