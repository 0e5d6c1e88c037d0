package import Foundation
import MusterJSON

/// Snapshot and checkpoint of a projection, saved together in one file so they never disagree.
package struct Snapshot<State: Codable & Sendable>: Codable, Sendable {
    package var projection: String
    package var version: Int
    /// The last stream sequence folded into `state`.
    package var checkpoint: UInt64
    package var savedAt: String
    package var state: State
}

/// Files under `<data>/projections/`, written to a temporary file, synced, then renamed, so a
/// kill -9 at any moment leaves either the old snapshot or the new one, never half of one.
package struct SnapshotStore: Sendable {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    package func url(name: String, version: Int) -> URL {
        directory.appendingPathComponent("\(name).v\(version).json")
    }

    package func load<State: Codable & Sendable>(_ type: State.Type, name: String, version: Int) throws -> Snapshot<State>? {
        let file = url(name: name, version: version)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        var decoder = JSONBytesDecoder()
        decoder.limits.maxBytes = max(decoder.limits.maxBytes, data.count) // our own file, as large as the state is
        do {
            return try data.withUnsafeBytes { try decoder.decode(Snapshot<State>.self, from: $0) }
        } catch {
            // Snapshots written before MusterJSON wrote them came from Foundation's encoder.
            if let snapshot = try? JSONDecoder().decode(Snapshot<State>.self, from: data) { return snapshot }
            throw SnapshotError(message: "snapshot \(file.path) is unreadable (\(error)); remove it or run `muster replay \(name)`")
        }
    }

    package func save<State: Codable & Sendable>(_ snapshot: Snapshot<State>) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // MusterJSON's encoder: several times Foundation's speed on a state of megabytes, which a
        // busy fold writes every few seconds. Keys as they come: only a fold reads a snapshot back,
        // by name, and putting every dictionary of a state in order was a third of writing it (in
        // a busy notifier, 4.7 % of the CPU sampled, of 14.7 % writing snapshots).
        var encoder = JSONBytesEncoder()
        encoder.sortedKeys = false
        let data = try encoder.encode(snapshot)
        let target = url(name: snapshot.projection, version: snapshot.version)
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw SnapshotError(message: "cannot write \(temporary.path)")
        }
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary.path, target.path) == 0 else {
            throw SnapshotError(message: "could not move snapshot into \(target.path): errno \(errno)")
        }
    }
}

extension SnapshotStore {
    /// Moves what a fold holds (its snapshot file, or its current database with its WAL) into
    /// `set-aside/<name>.v<version>.<label>/`, where nothing reads it again; answers the folder.
    /// For an operator to look at when a fold had to start again (`foldAgainFromTheStart`).
    package func setAside(name: String, version: Int, label: String) throws -> URL {
        let folder = directory.appendingPathComponent("set-aside").appendingPathComponent("\(name).v\(version).\(label)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files = [url(name: name, version: version)]
        if let current = currentDatabase(name: name, version: version) {
            files += ["", "-wal", "-shm"].map { URL(fileURLWithPath: current.path + $0) }
        }
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.moveItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
        }
        return folder
    }
}

package struct SnapshotError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
