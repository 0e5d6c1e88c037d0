import _NIOFileSystem
import Crypto
import Foundation
import MusterEvents
package import MusterNATS
import NIOCore

/// How far a backup or a restore has come, for a progress line.
package struct BackupProgress: Sendable {
    package var stream: String
    /// 1-based position of `stream` among `streams`.
    package var index: Int
    package var streams: Int
    /// Archive bytes of this stream moved so far, and what it stores on the server (its snapshot
    /// is compressed: usually less).
    package var bytes: Int64
    package var expected: Int64
    /// Archive bytes moved in all streams so far.
    package var total: Int64
}

/// `muster backup`: every stream of the account (the event log, the dead letters, the KV buckets,
/// the object stores) through JetStream's snapshot API into one tar file, while writes continue.
///
/// Each stream's snapshot is the server's point-in-time archive of it, sequence numbers kept (not
/// its consumers: each fold positions its own), so projections' checkpoints stay valid after a restore. Streams are taken
/// one after another: a write acknowledged before the backup began is in it; later ones may be.
/// The file appears only when it is complete (NIO's transactional creation: a temporary file
/// linked in at close), readable by its owner only.
package enum LogBackup {
    package static let chunkSize = 128 * 1024

    /// `natsURL` is recorded in the manifest: give it without credentials.
    package static func take(_ jetStream: JetStream, to output: String, musterVersion: String, natsURL: String,
                             progress: @escaping @Sendable (BackupProgress) -> Void) async throws -> BackupManifest {
        let files = FileSystem.shared
        let path = FilePath(output)
        if try await files.info(forFileAt: path) != nil {
            throw BackupError(.outputExists, "\(output) exists; a backup never overwrites one (choose another name)")
        }
        let started = Timestamp.string(Date())
        let names = try await jetStream.streamNames().sorted()
        var options = OpenOptions.Write.newFile(replaceExisting: false)
        options.newFile?.permissions = [.ownerRead, .ownerWrite]
        return try await files.withFileHandle(forWritingAt: path, options: options) { handle in
            var offset: Int64 = 0
            var streams: [BackupManifest.Stream] = []
            for (index, name) in names.enumerated() {
                let base = offset
                let entry = try await snapshot(name, of: jetStream, into: handle, at: offset) { moved, expected in
                    progress(BackupProgress(stream: name, index: index + 1, streams: names.count, bytes: moved,
                                            expected: expected, total: base + moved))
                }
                streams.append(entry)
                offset += Int64(BackupArchive.blockSize) + entry.bytes + BackupArchive.padding(after: entry.bytes)
            }
            let manifest = BackupManifest(format: BackupManifest.currentFormat, musterVersion: musterVersion,
                                          natsURL: natsURL, startedAt: started,
                                          finishedAt: Timestamp.string(Date()), streams: streams)
            let body = Array(try manifest.encoded())
            let header = try TarHeader(name: BackupArchive.manifestName, size: Int64(body.count), modified: now()).encoded()
            let tail = header + body + [UInt8](repeating: 0, count: Int(BackupArchive.padding(after: Int64(body.count)))) + BackupArchive.end
            try await handle.write(contentsOf: tail, toAbsoluteOffset: offset)
            try await handle.synchronize()
            return manifest
        }
    }

    /// One stream's snapshot as an archive entry at `offset`: its header goes in once its size is known.
    private static func snapshot(_ name: String, of jetStream: JetStream, into handle: WriteFileHandle, at offset: Int64,
                                 moved: (Int64, Int64) -> Void) async throws -> BackupManifest.Stream {
        let expected = Int64(clamping: (try? await jetStream.streamInfo(name))?.state.bytes ?? 0)
        let dataStart = offset + Int64(BackupArchive.blockSize)
        var hasher = SHA256()
        var size: Int64 = 0
        moved(0, expected)
        let answer = try await jetStream.snapshot(stream: name, chunkSize: chunkSize) { chunk in
            try await handle.write(contentsOf: chunk, toAbsoluteOffset: dataStart + size)
            hasher.update(data: chunk)
            size += Int64(chunk.count)
            moved(size, expected)
        }
        moved(size, size) // done: a compressed snapshot is smaller than what the stream stores
        let header = try TarHeader(name: BackupArchive.streamsFolder + name + ".snapshot", size: size, modified: now()).encoded()
        try await handle.write(contentsOf: header, toAbsoluteOffset: offset)
        let padding = BackupArchive.padding(after: size)
        if padding > 0 {
            try await handle.write(contentsOf: [UInt8](repeating: 0, count: Int(padding)), toAbsoluteOffset: dataStart + size)
        }
        let (config, state) = try serverAnswer(answer, stream: name)
        return BackupManifest.Stream(name: name, file: BackupArchive.streamsFolder + name + ".snapshot", bytes: size,
                                     sha256: hasher.finalize().map { String(format: "%02x", $0) }.joined(),
                                     messages: state.unsigned("messages"), firstSequence: state.unsigned("first_seq"),
                                     lastSequence: state.unsigned("last_seq"), storedBytes: state.unsigned("bytes"),
                                     config: config, state: state)
    }

    /// The snapshot answer's `config` and `state`, kept as JSON to hand back unchanged.
    private static func serverAnswer(_ answer: Data, stream: String) throws -> (JSONValue, JSONValue) {
        struct Answer: Decodable { var config: JSONValue; var state: JSONValue }
        do {
            let decoded = try JSONDecoder().decode(Answer.self, from: answer)
            return (decoded.config, decoded.state)
        } catch {
            throw BackupError(.badManifest, "snapshot of \(stream): the server's answer has no config and state")
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }
}

extension JSONValue {
    /// A non-negative integer member of an object; 0 when absent.
    func unsigned(_ key: String) -> UInt64 {
        if case .object(let members) = self, case .integer(let value)? = members[key], value > 0 { return UInt64(value) }
        return 0
    }
}
