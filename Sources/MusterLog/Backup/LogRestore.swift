import _NIOFileSystem
import Crypto
import Foundation
import MusterEvents
package import MusterNATS
import NIOCore

/// `muster restore`: a backup's streams back into a server through JetStream's restore API, with
/// their sequence numbers. The whole file is checked against its manifest (sizes, SHA-256) before
/// the server is touched, and a stream the server already has stops the restore before anything
/// changes unless the operator says to replace it.
package enum LogRestore {
    /// A stream as restored, beside what the manifest says it held when its snapshot began.
    package struct Restored: Sendable {
        package var name: String
        package var messages: UInt64
        package var lastSequence: UInt64
        package var backedUpMessages: UInt64
        package var backedUpLastSequence: UInt64
    }

    /// Reads the archive's index and manifest and checks every stream's bytes; changes nothing.
    package static func verify(_ input: String, progress: @escaping @Sendable (BackupProgress) -> Void) async throws -> (BackupManifest, [String: TarEntry]) {
        try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(input)) { handle in
            let (manifest, entries) = try await index(handle, input: input)
            var total: Int64 = 0
            for (position, stream) in manifest.streams.enumerated() {
                guard let entry = entries[stream.file] else {
                    throw BackupError(.unreadableArchive, "\(input) has no \(stream.file), which its manifest lists")
                }
                guard entry.size == stream.bytes else {
                    throw BackupError(.checksumMismatch, "\(stream.file) holds \(entry.size) bytes; the manifest says \(stream.bytes)")
                }
                var hasher = SHA256()
                var read: Int64 = 0
                for try await chunk in handle.readChunks(in: entry.dataOffset ..< entry.dataOffset + entry.size, chunkLength: .mebibytes(1)) {
                    chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                    read += Int64(chunk.readableBytes)
                    progress(BackupProgress(stream: stream.name, index: position + 1, streams: manifest.streams.count,
                                            bytes: read, expected: entry.size, total: total + read))
                }
                total += read
                let digest = hasher.finalize().map { String(format: "%02x", $0) }.joined()
                guard read == entry.size, digest == stream.sha256 else {
                    throw BackupError(.checksumMismatch, "\(stream.file): SHA-256 \(digest) is not the manifest's \(stream.sha256); the backup is damaged")
                }
            }
            return (manifest, entries)
        }
    }

    /// Verifies `input`, then restores every stream in it into the server `jetStream` reaches.
    /// Streams the server has already are refused, all of them named, before anything changes;
    /// with `replacing` they are deleted and restored from the backup.
    package static func restore(_ input: String, into jetStream: JetStream, replacing: Bool,
                                verifying: @escaping @Sendable (BackupProgress) -> Void,
                                progress: @escaping @Sendable (BackupProgress) -> Void) async throws -> [Restored] {
        let (manifest, entries) = try await verify(input, progress: verifying)
        var existing: [String] = []
        for stream in manifest.streams where try await jetStream.streamExists(stream.name) {
            existing.append(stream.name)
        }
        if !existing.isEmpty, !replacing {
            throw BackupError(.streamExists, "the server already has \(existing.joined(separator: ", ")); restore refuses to overwrite a stream (--replace deletes and restores them)")
        }
        return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(input)) { handle in
            var restored: [Restored] = []
            var total: Int64 = 0
            for (position, stream) in manifest.streams.enumerated() {
                guard let entry = entries[stream.file] else { continue } // verify saw every one
                if existing.contains(stream.name) { try await jetStream.deleteStream(stream.name) }
                let request = try JSONEncoder().encode(["config": stream.config, "state": stream.state])
                var sent: Int64 = 0
                let base = total
                let state = try await jetStream.restore(stream: stream.name, request: request) {
                    guard sent < entry.size else { return nil }
                    let length = min(Int64(LogBackup.chunkSize), entry.size - sent)
                    let chunk = try await handle.readChunk(fromAbsoluteOffset: entry.dataOffset + sent, length: .bytes(length))
                    guard chunk.readableBytes > 0 else {
                        throw BackupError(.unreadableArchive, "\(stream.file) ended early while restoring it")
                    }
                    sent += Int64(chunk.readableBytes)
                    progress(BackupProgress(stream: stream.name, index: position + 1, streams: manifest.streams.count,
                                            bytes: sent, expected: entry.size, total: base + sent))
                    return Data(chunk.readableBytesView)
                }
                total += sent
                restored.append(Restored(name: stream.name, messages: state.messages, lastSequence: state.lastSeq,
                                         backedUpMessages: stream.messages, backedUpLastSequence: stream.lastSequence))
            }
            return restored
        }
    }

    /// The archive's entries by name and its manifest, read a header at a time.
    private static func index(_ handle: ReadFileHandle, input: String) async throws -> (BackupManifest, [String: TarEntry]) {
        let size = try await handle.info().size
        let block = Int64(BackupArchive.blockSize)
        var index = TarIndex()
        while !index.ended {
            let bytes = index.next + block <= size ? try await handle.readChunk(fromAbsoluteOffset: index.next, length: .bytes(block)) : nil
            try index.read(bytes.map { ArraySlice($0.readableBytesView) }, archiveSize: size)
        }
        let entries = Dictionary(index.entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        guard let entry = entries[BackupArchive.manifestName] else {
            throw BackupError(.unreadableArchive, "\(input) has no \(BackupArchive.manifestName): not a Muster backup, or one cut short")
        }
        guard entry.size <= Int64(BackupManifest.maxBytes) else {
            throw BackupError(.badManifest, "manifest of \(entry.size) bytes is over the \(BackupManifest.maxBytes) limit")
        }
        let body = try await handle.readChunk(fromAbsoluteOffset: entry.dataOffset, length: .bytes(entry.size))
        return (try BackupManifest.decode(body.readableBytesView), entries)
    }
}
