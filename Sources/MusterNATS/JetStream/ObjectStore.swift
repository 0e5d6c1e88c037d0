package import Foundation
package import Crypto
import MusterJSON

/// A JetStream object store bucket (`OBJ_<bucket>` stream, laid out as NATS object stores are:
/// chunks on `$O.<bucket>.C.<id>`, the description on `$O.<bucket>.M.<id>`), addressed by the
/// content's SHA-256: the same bytes stored twice are one object. The description is written last,
/// so an object is visible only once every chunk is stored; it lists the chunks' sequences, so a
/// read and an erase touch exactly those messages.
package struct ObjectStore: Sendable {
    package let jetStream: JetStream
    package let bucket: String
    package static let chunkSize = 128 * 1024

    /// What is known of a stored object.
    package struct Info: Codable, Sendable, Equatable {
        /// Lowercase hex SHA-256 of the content: the object's name.
        package var digest: String
        package var size: Int
        package var type: String
        /// The chunks' stream sequences, in order.
        package var sequences: [UInt64]
        /// `SHA-256=<base64url>`, as NATS object stores write it.
        package var natsDigest: String

        enum CodingKeys: String, CodingKey {
            case digest = "name", size, type, sequences = "x_sequences", natsDigest = "digest"
        }
    }

    var streamName: String { "OBJ_\(bucket)" }
    func chunkSubject(_ digest: String) -> String { "$O.\(bucket).C.\(digest)" }
    func metaSubject(_ digest: String) -> String { "$O.\(bucket).M.\(digest)" }

    /// Opens the bucket, creating its stream when needed (with the log's replicas).
    package static func open(_ jetStream: JetStream, bucket: String, replicas: Int = 1, maxBytes: Int64 = -1) async throws -> ObjectStore {
        var config = StreamConfig(name: "OBJ_\(bucket)", subjects: ["$O.\(bucket).C.>", "$O.\(bucket).M.>"])
        config.allowRollupHdrs = true
        config.allowDirect = true
        config.discard = .new
        config.numReplicas = replicas
        config.maxBytes = maxBytes
        try await jetStream.ensureStream(config)
        return ObjectStore(jetStream: jetStream, bucket: bucket)
    }

    package static func digest(_ bytes: some Collection<UInt8>) -> String {
        hex(SHA256.hash(data: Data(bytes)))
    }

    /// An object's name: its SHA-256 in lowercase hex.
    package static func hex(_ digest: SHA256.Digest) -> String {
        Hex.lowercase(digest)
    }

    /// Stores the bytes (or finds them already stored) and describes them.
    package func put(_ bytes: [UInt8], type: String) async throws -> Info {
        let chunks = AsyncThrowingStream<Data, any Error> { stream in
            for start in stride(from: 0, to: max(bytes.count, 1), by: Self.chunkSize) {
                stream.yield(Data(bytes[start..<min(start + Self.chunkSize, bytes.count)]))
            }
            stream.finish()
        }
        return try await put(digest: SHA256.hash(data: Data(bytes)), size: bytes.count, type: type, chunks: chunks)
    }

    /// Stores an object whose digest and size the caller already knows (it hashed the bytes as
    /// they arrived), its bytes coming as `chunks` of at most `chunkSize` (read from a file as
    /// they are sent, never held whole); or finds it already stored. The chunks are published
    /// pipelined, a few acks outstanding, not one round trip each.
    package func put(digest raw: SHA256.Digest, size: Int, type: String,
                    chunks: some AsyncSequence<Data, any Error>) async throws -> Info {
        let digest = Self.hex(raw)
        if let existing = try await info(digest) { return existing }
        let writer = try writer(id: digest)
        for try await chunk in chunks {
            guard chunk.count <= Self.chunkSize else { throw NATSError(.badReply, "a chunk of \(chunk.count) bytes is over \(Self.chunkSize)") }
            try await writer.write(chunk)
        }
        guard writer.written == size else { throw NATSError(.badReply, "object \(digest): \(writer.written) bytes came, \(size) were announced") }
        return try await writer.commit(digest: raw, type: type)
    }

    /// The object's description, or nil when it is not stored.
    package func info(_ digest: String) async throws -> Info? {
        guard Self.isDigest(digest) else { return nil }
        guard let stored = try await jetStream.lastMessage(stream: streamName, subject: metaSubject(digest)),
              !stored.payload.isEmpty else { return nil }
        return try JSONDecoder().decode(Info.self, from: stored.payload)
    }

    /// The object's bytes, checked against its digest.
    package func get(_ digest: String) async throws -> [UInt8]? {
        guard let info = try await info(digest) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(info.size)
        for sequence in info.sequences {
            bytes += try await jetStream.getMessage(stream: streamName, sequence: sequence).payload
        }
        guard bytes.count == info.size, Self.digest(bytes) == digest else {
            throw NATSError(.jetStreamAPI, "object \(digest) in \(bucket) does not match its digest")
        }
        return bytes
    }

    /// Removes the object, overwriting its chunks' bytes on the server's disk.
    package func erase(_ digest: String) async throws {
        guard let info = try await info(digest) else { return }
        for sequence in info.sequences {
            do {
                try await jetStream.deleteMessage(stream: streamName, sequence: sequence, erase: true)
            } catch let error as NATSError where error.code == .notFound || error.apiErrorCode == 10057 {
                continue // already gone
            }
        }
        let meta = try await jetStream.getMessage(stream: streamName, lastBySubject: metaSubject(digest))
        try await jetStream.deleteMessage(stream: streamName, sequence: meta.sequence, erase: true)
    }

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
