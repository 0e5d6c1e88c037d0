package import Crypto
package import Foundation
import Synchronization

extension ObjectStore {
    /// An object whose bytes are sent while they arrive, before anyone knows their digest: each
    /// `write` publishes its bytes as chunks on `$O.<bucket>.C.<id>` (pipelined, a few acks
    /// outstanding), and `commit` names them by their digest once the last has come. Nothing is
    /// visible until then; `discard` removes what was sent. The chunks' subject is `id`, not the
    /// digest: the description lists their sequences, which is all a read or an erase follows.
    package final class Writer: Sendable {
        struct State: Sendable {
            var count = 0
            var written = 0
            /// Each chunk's sequence once acknowledged, by its index.
            var sequences: [Int: UInt64] = [:]
            var failure: NATSError?
        }

        package let store: ObjectStore
        package let id: String
        let publisher: JetStreamPublisher
        let state = Mutex(State())

        init(store: ObjectStore, id: String) {
            self.store = store
            self.id = id
            publisher = JetStreamPublisher(store.jetStream, maxInFlight: 8)
        }

        /// How many bytes were handed to `write` so far.
        package var written: Int { state.withLock { $0.written } }

        /// Sends the bytes, as chunks of at most `chunkSize`; returns once they are handed to the
        /// connection (their acks are awaited by `commit`).
        package func write(_ bytes: Data) async throws {
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = min(start + ObjectStore.chunkSize, bytes.endIndex)
                let index = state.withLock { state in
                    defer { (state.count, state.written) = (state.count + 1, state.written + end - start) }
                    return state.count
                }
                let chunk = start == bytes.startIndex && end == bytes.endIndex ? bytes : bytes.subdata(in: start..<end)
                let message = OutgoingMessage(subject: store.chunkSubject(id), payload: chunk)
                try await publisher.submit(message) { [self] ack in
                    self.state.withLock { state in
                        switch ack {
                        case .success(let ack): state.sequences[index] = ack.seq
                        case .failure(let error): state.failure = state.failure ?? error
                        }
                    }
                }
                start = end
            }
        }

        /// Waits for every chunk's ack and describes the object as `digest` (the SHA-256 of every
        /// byte written, in order); when those bytes are already stored, removes the ones sent and
        /// answers the stored object.
        package func commit(digest raw: SHA256.Digest, type: String) async throws -> Info {
            try await publisher.finish()
            let (sequences, size) = try state.withLock { state -> ([UInt64], Int) in
                if let failure = state.failure { throw failure }
                let sequences = try (0..<state.count).map { index in
                    guard let sequence = state.sequences[index] else { throw NATSError(.timeout, "chunk \(index) of \(id) has no ack") }
                    return sequence
                }
                return (sequences, state.written)
            }
            let digest = ObjectStore.hex(raw)
            if let existing = try await store.info(digest) {
                try await remove(sequences)
                return existing
            }
            let natsDigest = "SHA-256=" + Data(raw).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let info = Info(digest: digest, size: size, type: type, sequences: sequences, natsDigest: natsDigest)
            var headers = NATSHeaders()
            headers["Nats-Rollup"] = "sub"
            _ = try await store.jetStream.publish(OutgoingMessage(subject: store.metaSubject(digest), headers: headers,
                                                                  payload: try JSONEncoder().encode(info)))
            return info
        }

        /// Removes every chunk sent under this writer's id (by an earlier process too).
        package func discard() async throws {
            try await publisher.finish()
            try await store.jetStream.purge(stream: store.streamName, subject: store.chunkSubject(id))
        }

        /// Removes these chunks of a duplicate: by subject when the id is this writer's own, one
        /// by one when it is the digest (the stored object's chunks share that subject).
        private func remove(_ sequences: [UInt64]) async throws {
            guard ObjectStore.isDigest(id) else {
                try await store.jetStream.purge(stream: store.streamName, subject: store.chunkSubject(id))
                return
            }
            for sequence in sequences {
                try await store.jetStream.deleteMessage(stream: store.streamName, sequence: sequence, erase: false)
            }
        }
    }

    /// A writer for an object whose bytes come later; `id` names its chunks' subject (a token
    /// of letters, digits and dashes, unique to this object until it is committed or discarded).
    package func writer(id: String) throws -> Writer {
        guard !id.isEmpty, id.utf8.count <= 128,
              id.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 }) else {
            throw NATSError(.badReply, "an object writer's id is letters, digits and dashes, not \(id.prefix(40))")
        }
        return Writer(store: self, id: id)
    }
}
