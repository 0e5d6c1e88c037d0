import Foundation
import GRDB
import Logging
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import Synchronization
import Testing

/// The restore drill: a backup taken while writes go on, restored into a new nats-server, holds
/// every write acknowledged before it began, none twice, and every projection rebuilt from it
/// equals the one rebuilt from the live log at the same point (their states, not their counts).
@Suite("Backup and restore drill", .serialized)
struct RestoreDrillTests {
    @Test func aBackupUnderLoadRestoresEveryAcknowledgedWriteAndEveryFold() async throws {
        try await apps.withTestLog { live in try await drill(live) }
    }

    func drill(_ live: TestLog) async throws {
        let folder = live.dataDirectory.deletingLastPathComponent()
        let backup = folder.appendingPathComponent("drill.tar").path

        // Every event type's schema examples, so every fold has something of its own to fold.
        let seeded = try await appendSchemaExamples(to: live.log)
        #expect(seeded >= 100, "the schema examples reach the log")

        // A KV bucket and an object store as the services keep them (a lease; a field photo).
        let leases = try await KeyValue.open(live.log.jetStream, bucket: "muster_apns")
        _ = try await leases.put("lease", Data("held by drill".utf8))
        let photos = try await ObjectStore.open(live.log.jetStream, bucket: Blobs.field)
        let photo = (0 ..< 300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let stored = try await photos.put(photo, type: "image/jpeg")

        // A writer that keeps appending while the backup runs; each acknowledgement is noted with
        // whether it came back before the backup began.
        let began = Atomic<Bool>(false)
        let acknowledged = Mutex<[(sequence: UInt64, id: String, beforeBackup: Bool)]>([])
        let writer = Task {
            var index = 0
            while !Task.isCancelled {
                let (_, event) = issuedKey(app: "opl", scopes: ["opl:read"])
                let before = !began.load(ordering: .sequentiallyConsistent)
                if let result = try? await live.log.append(event) {
                    // An append sent before the backup began counts as before it, even if answered
                    // during it: stricter than the promise (acknowledged before).
                    acknowledged.withLock { $0.append((result.sequence, result.eventID, before)) }
                }
                index += 1
                if index % 50 == 0 { await Task.yield() }
            }
        }
        try await eventually("the writer has written", timeout: .seconds(30)) { acknowledged.withLock { $0.count } >= 500 }
        began.store(true, ordering: .sequentiallyConsistent)
        let manifest = try await LogBackup.take(live.log.jetStream, to: backup, musterVersion: MusterVersion.current,
                                                natsURL: live.server.url) { _ in }
        try await eventually("writes went on after the backup", timeout: .seconds(30)) {
            acknowledged.withLock { $0.filter { !$0.beforeBackup }.count } >= 200
        }
        writer.cancel()
        _ = await writer.value
        let streams = Set(manifest.streams.map(\.name))
        #expect(streams.isSuperset(of: ["EVENTS", live.log.configuration.dlqStream]), "the log and its dead letters: \(streams)")
        #expect(streams.contains { $0.hasPrefix("KV_") }, "the KV buckets: \(streams)")

        // Restore into a new server, which must refuse to restore over what it has without --replace.
        var logger = Logger(label: "drill")
        logger.logLevel = .error
        try await withNATS { connection, _ in
            let jetStream = JetStream(connection, apiTimeout: .seconds(30))
            let restored = try await LogRestore.restore(backup, into: jetStream, replacing: false, verifying: { _ in }, progress: { _ in })
            #expect(Set(restored.map(\.name)) == streams)
            let again = await #expect(throws: BackupError.self) {
                try await LogRestore.restore(backup, into: jetStream, replacing: false, verifying: { _ in }, progress: { _ in })
            }
            #expect(again?.code == .streamExists)

            let restoredLease = try await KeyValue.open(jetStream, bucket: "muster_apns").get("lease")
            #expect(restoredLease?.value == Data("held by drill".utf8), "the KV bucket's value came back")
            #expect(try await ObjectStore.open(jetStream, bucket: Blobs.field).get(stored.digest) == photo, "the photo came back whole")

            // Every write acknowledged before the backup began is there, at its sequence; none twice.
            let restoredLog = EventLog(jetStream: jetStream, catalog: apps.catalog, configuration: live.log.configuration, source: "drill")
            let events = try await restoredLog.read(filter: ">")
            let bySequence = Dictionary(events.map { ($0.sequence, $0.id) }, uniquingKeysWith: { first, _ in first })
            let ids = events.map(\.id)
            #expect(Set(ids).count == ids.count, "an event is in the restored log twice")
            let before = acknowledged.withLock { $0.filter(\.beforeBackup) }
            let missing = before.filter { bySequence[$0.sequence] != $0.id }
            #expect(missing.isEmpty, "\(missing.count) of \(before.count) writes acknowledged before the backup are missing")
            // The point both logs are compared at: the last event the restored log holds. (A snapshot
            // taken under writes can end its state one sequence past the last message it copied: that
            // write was acknowledged during the backup, and the restored stream goes on after it.)
            let end = try #require(events.last?.sequence)
            let backedUp = try #require(manifest.streams.first { $0.name == "EVENTS" })
            #expect(end >= backedUp.lastSequence - 1 && events.count >= Int(backedUp.messages) - 1,
                    "the restored log ends at \(end); the backup began at \(backedUp.lastSequence)")

            // Every projection rebuilt from the restored log equals the live log's rebuilt to the same point.
            var compared: [String] = []
            for projection in apps.projections {
                compared.append(try await Self.compare(projection, live: live.log, restored: restoredLog, through: end,
                                                       folder: folder, logger: logger))
            }
            #expect(compared.count == apps.projections.count && compared.count >= 10)
            print("restore drill: \(before.count) writes acknowledged before the backup, \(acknowledged.withLock { $0.count } - before.count) during and after; "
                  + "\(events.count) events restored up to \(end); \(compared.count) folds equal: \(compared.joined(separator: ", "))")
        }
    }

    /// Appends each valid example of every event schema; answers how many went in.
    func appendSchemaExamples(to log: EventLog) async throws -> Int {
        var appended = 0
        for (type, examples) in try CapacityTests.examples() {
            for example in examples {
                _ = try await log.append(try log.catalog.decodeData(type, from: JSONEncoder().encode(example)))
                appended += 1
            }
        }
        return appended
    }

    /// Rebuilds `P` on both logs into folders of their own and compares state, checkpoint and, for a
    /// fold that keeps tables, every row of every table.
    static func compare<P: Projection>(_ type: P.Type, live: EventLog, restored: EventLog, through: UInt64,
                                       folder: URL, logger: Logger) async throws -> String {
        let liveStore = SnapshotStore(directory: folder.appendingPathComponent("drill-live"))
        let restoredStore = SnapshotStore(directory: folder.appendingPathComponent("drill-restored"))
        let asOf = try await ProjectionRunner<P>.rebuild(log: live, store: liveStore, logger: logger, through: through) { _ in }
        let fromBackup = try await ProjectionRunner<P>.rebuild(log: restored, store: restoredStore, logger: logger) { _ in }
        #expect(asOf.checkpoint == fromBackup.checkpoint, "\(P.name): checkpoint \(asOf.checkpoint) live, \(fromBackup.checkpoint) restored")
        let same = asOf.state == fromBackup.state // (not inside #expect: it would print both states whole)
        #expect(same, "\(P.name): the state rebuilt from the restored log differs from the live one")
        if P.tables != nil {
            let liveRows = try rows(liveStore, P.self)
            let restoredRows = try rows(restoredStore, P.self)
            let sameRows = liveRows == restoredRows
            #expect(sameRows, "\(P.name): its tables differ: \(difference(liveRows, restoredRows))")
            return "\(P.name) (\(liveRows.values.reduce(0) { $0 + $1.count }) rows)"
        }
        return P.name
    }

    /// The rows only one side has, a few per table (what a failure shows).
    static func difference(_ live: [String: [String]], _ restored: [String: [String]]) -> String {
        Set(live.keys).union(restored.keys).sorted().compactMap { table -> String? in
            let a = Set(live[table] ?? []), b = Set(restored[table] ?? [])
            guard a != b else { return nil }
            return "\(table): live only \(a.subtracting(b).sorted().prefix(3)), restored only \(b.subtracting(a).sorted().prefix(3))"
        }.joined(separator: "; ")
    }

    /// Every row of every table of a fold's database, each as text, sorted.
    static func rows<P: Projection>(_ store: SnapshotStore, _ type: P.Type) throws -> [String: [String]] {
        let file = try #require(store.currentDatabase(name: P.name, version: P.version), "\(P.name) has a database")
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: file.path, configuration: configuration)
        return try database.read { db in
            var tables: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                // When the fold row was saved is the wall clock's, not the fold's: two rebuilds a
                // second apart differ there and nowhere else.
                let columns = table == "muster_fold" ? "projection, version, checkpoint, state" : "*"
                tables[table] = try Row.fetchAll(db, sql: "SELECT \(columns) FROM \"\(table)\"").map { $0.description }.sorted()
            }
            return tables
        }
    }
}
