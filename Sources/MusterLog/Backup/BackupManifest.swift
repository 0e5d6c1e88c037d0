package import Foundation
package import MusterEvents
import MusterJSON

/// What a backup holds, written last into it as `manifest.json`: every stream with the
/// configuration and state the server answered when its snapshot began, the snapshot's size and
/// SHA-256, and when and by which Muster it was made.
package struct BackupManifest: Codable, Sendable, Equatable {
    package static let currentFormat = "muster-backup/1"

    package var format: String
    package var musterVersion: String
    package var natsURL: String
    package var startedAt: String
    package var finishedAt: String
    package var streams: [Stream]

    // Keys spelled out rather than a key strategy: a strategy would also rename the keys inside
    // `config` and `state`, which go back to the server as they came.
    enum CodingKeys: String, CodingKey {
        case format, streams
        case musterVersion = "muster_version", natsURL = "nats_url", startedAt = "started_at", finishedAt = "finished_at"
    }

    package struct Stream: Codable, Sendable, Equatable {
        package var name: String
        /// The entry in the archive (`streams/<name>.snapshot`).
        package var file: String
        /// The snapshot's bytes in the archive and their SHA-256 (hex).
        package var bytes: Int64
        package var sha256: String
        /// The stream when its snapshot began: a restore holds at least these messages.
        package var messages: UInt64
        package var firstSequence: UInt64
        package var lastSequence: UInt64
        package var storedBytes: UInt64
        /// The server's answer, sent back as it was on restore (`{"config":…,"state":…}`).
        package var config: JSONValue
        package var state: JSONValue

        enum CodingKeys: String, CodingKey {
            case name, file, bytes, sha256, messages, config, state
            case firstSequence = "first_seq", lastSequence = "last_seq", storedBytes = "stored_bytes"
        }
    }

    /// The manifest as written: keys sorted, indented, so `tar xOf backup.tar manifest.json` reads well.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The largest manifest read back: thousands of streams' worth.
    package static let maxBytes = 16 * 1024 * 1024

    /// Reads a manifest, checking what a restore relies on: the format, stream names a subject can
    /// hold, one entry per stream, sizes and digests of the right shape.
    package static func decode(_ bytes: some Collection<UInt8>) throws(BackupError) -> BackupManifest {
        guard bytes.count <= maxBytes else {
            throw BackupError(.badManifest, "manifest of \(bytes.count) bytes is over the \(maxBytes) limit")
        }
        let decoder = JSONDecoder()
        let manifest: BackupManifest
        do {
            manifest = try decoder.decode(BackupManifest.self, from: Data(bytes))
        } catch {
            throw BackupError(.badManifest, "manifest.json is not a backup manifest: \(error)")
        }
        guard manifest.format == currentFormat else {
            throw BackupError(.badManifest, "backup format \(manifest.format); this Muster reads \(currentFormat)")
        }
        var seen = Set<String>()
        for stream in manifest.streams {
            guard isStreamName(stream.name), seen.insert(stream.name).inserted else {
                throw BackupError(.badManifest, "stream name \(stream.name.debugDescription) is not a valid, unique stream name")
            }
            guard stream.file == BackupArchive.streamsFolder + stream.name + ".snapshot" else {
                throw BackupError(.badManifest, "\(stream.name): its snapshot is filed as \(stream.file.debugDescription)")
            }
            guard stream.bytes >= 0, stream.sha256.utf8.count == 64,
                  stream.sha256.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
                throw BackupError(.badManifest, "\(stream.name): size or SHA-256 malformed")
            }
            guard case .object = stream.config, case .object = stream.state else {
                throw BackupError(.badManifest, "\(stream.name): config and state must be JSON objects")
            }
        }
        return manifest
    }

    /// JetStream's rule for stream names (they become subject tokens): printable, no spaces,
    /// dots, wildcards or path separators, at most 255 bytes.
    package static func isStreamName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= 255 && bytes.allSatisfy { byte in
            byte > 0x20 && byte < 0x7f && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "*")
                && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\\")
        }
    }
}

/// Why a backup or a restore stopped.
package struct BackupError: Error, Sendable, CustomStringConvertible {
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        let raw: String
        /// Not a tar archive Muster wrote, or a damaged/truncated one.
        package static let unreadableArchive = Code(raw: "unreadableArchive")
        package static let badManifest = Code(raw: "badManifest")
        /// A stream's bytes do not match the manifest's SHA-256 or size.
        package static let checksumMismatch = Code(raw: "checksumMismatch")
        /// The target server already has a stream the backup holds (restore without `--replace`).
        package static let streamExists = Code(raw: "streamExists")
        /// The output file exists (a backup never overwrites one).
        package static let outputExists = Code(raw: "outputExists")
        package var description: String { raw }
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
