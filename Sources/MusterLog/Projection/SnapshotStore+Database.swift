package import Foundation
package import GRDB

/// The SQLite databases of the folds that keep tables (`ProjectionTables`).
///
/// Each build of a projection is a generation of its own, `<name>.v<version>.g<millis>.sqlite`,
/// and the symbolic link `<name>.v<version>.sqlite` names the current one. A rebuild fills a new
/// generation beside the live one and swaps the link in one rename when it has caught up, so a
/// running server keeps reading the old generation until it reloads, exactly as with snapshot files.
extension SnapshotStore {
    /// The link to the current generation.
    package func databaseLink(name: String, version: Int) -> URL {
        directory.appendingPathComponent("\(name).v\(version).sqlite")
    }

    /// The current generation's file, nil when there is none yet.
    package func currentDatabase(name: String, version: Int) -> URL? {
        let link = databaseLink(name: name, version: version)
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path) else { return nil }
        return directory.appendingPathComponent((target as NSString).lastPathComponent)
    }

    /// A file for a new generation, newer than every earlier one.
    package func newDatabase(name: String, version: Int) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let millis = Int64(Date().timeIntervalSince1970 * 1000)
        var generation = millis
        while FileManager.default.fileExists(atPath: databaseFile(name: name, version: version, generation: generation).path) {
            generation += 1
        }
        return databaseFile(name: name, version: version, generation: generation)
    }

    /// Makes `file` the current generation: a new link renamed over the old one.
    package func publishDatabase(_ file: URL, name: String, version: Int) throws {
        let link = databaseLink(name: name, version: version)
        let temporary = directory.appendingPathComponent(".\(link.lastPathComponent).\(getpid()).link")
        try? FileManager.default.removeItem(at: temporary)
        try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: file.lastPathComponent)
        guard rename(temporary.path, link.path) == 0 else {
            throw SnapshotError(message: "could not point \(link.path) at \(file.lastPathComponent): errno \(errno)")
        }
    }

    /// Removes the generations older than `current` (with their WAL files); newer ones may be a
    /// rebuild still running in another process.
    package func removeDatabases(olderThan current: URL, name: String, version: Int) {
        guard let currentGeneration = generation(of: current.lastPathComponent, name: name, version: version),
              let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for file in files {
            let base = file.replacingOccurrences(of: "-wal", with: "").replacingOccurrences(of: "-shm", with: "")
            guard let generation = generation(of: base, name: name, version: version), generation < currentGeneration else { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
    }

    /// Opens one generation: WAL, so the query routes read while the fold writes; `synchronous =
    /// NORMAL`, so a commit does not wait for the disk — a kill -9 still loses nothing (the WAL is
    /// in the kernel's cache), a power cut may lose the last batches, which the log still holds
    /// and the fold reads again from the checkpoint that survived.
    package func openDatabase(_ file: URL) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = file.lastPathComponent
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return try DatabasePool(path: file.path, configuration: configuration)
    }

    func databaseFile(name: String, version: Int, generation: Int64) -> URL {
        directory.appendingPathComponent("\(name).v\(version).g\(generation).sqlite")
    }

    func generation(of file: String, name: String, version: Int) -> Int64? {
        let prefix = "\(name).v\(version).g", suffix = ".sqlite"
        guard file.hasPrefix(prefix), file.hasSuffix(suffix) else { return nil }
        return Int64(file.dropFirst(prefix.count).dropLast(suffix.count))
    }
}
