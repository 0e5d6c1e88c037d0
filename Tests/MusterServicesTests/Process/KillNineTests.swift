import Foundation
import GRDB
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterPlatform
import MusterRuntime
import MusterTesting
import Testing

/// The process is killed with SIGKILL while it folds 50-60k events; after a restart its projection
/// equals one built in a single clean run. Once for a fold kept in a snapshot file (keys), once
/// for one kept in SQLite (funnel).
@Suite("Projections survive kill -9", .serialized)
struct KillNineTests {
    static var binary: String {
        ProcessInfo.processInfo.environment["MUSTER_BIN"] ?? Repository.path(".build/debug/muster")
    }

    /// The stand-ins' program, beside `muster` (never part of it).
    static var standIns: String {
        URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("muster-standins").path
    }

    /// Appends `total` events made by `event(i)` in chunks of 10k, to bound memory, each acknowledged.
    func appendInChunks<P: EventPayload>(_ total: Int, to log: EventLog, _ event: (Int) -> P) async throws {
        var appended = 0
        while appended < total {
            let chunk = (appended..<min(appended + 10_000, total)).map(event)
            let results = try await log.appendAll(chunk)
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            appended += chunk.count
        }
    }

    /// Starts `muster serve query`, kills it with SIGKILL once `checkpoint` (what it saved) has moved
    /// and before it reaches `total`, starts it again, and stops it gracefully once `/ready` says
    /// `projection` has folded all: its last snapshot is then the graceful stop's. (Waiting for a
    /// saved `total` instead waited out the runner's spacing of big snapshots, 60 times the last one's
    /// cost: the fold was done long before, and this test took 100-180 s of make test's longest pass.)
    func killMidwayThenRestart(natsURL: String, data: URL, log: URL, total: Int, projection: String,
                               checkpoint: () -> UInt64) async throws {
        func serve(port: Int) throws -> Process {
            try ServeProcess.start("query", natsURL: natsURL, data: data, port: port, metricsPort: nil, instance: "killtest", log: log)
        }
        let first = try serve(port: try freePort())
        try await eventually("a first saved checkpoint", timeout: .seconds(120)) { checkpoint() > 0 }
        kill(first.processIdentifier, SIGKILL)
        #expect(try await first.waitForExit(within: .seconds(30), "muster serve after SIGKILL") == .killed(signal: SIGKILL))
        #expect(checkpoint() < UInt64(total), "killed only after it had finished; the test proves less than it should")

        let port = try freePort()
        let second = try serve(port: port)
        try await eventually("caught up after restart", timeout: .seconds(180)) {
            try await Task.sleep(for: .milliseconds(200)) // a few polls a second: the other process needs the cores
            return await Self.folded(projection, port: port) == UInt64(total)
        }
        second.terminate() // SIGTERM: graceful
        let ending = try await second.waitForExit(within: .seconds(60), "muster serve after SIGTERM")
        #expect(ending == .exited(0), "graceful stop exits 0; log: \(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).suffix(2000))")
        #expect(checkpoint() == UInt64(total), "the graceful stop saves what was folded")
    }

    /// The checkpoint `/ready` reports for `projection` (0 while the process does not answer yet).
    static func folded(_ projection: String, port: Int) async -> UInt64 {
        struct Ready: Decodable {
            struct Report: Decodable { var name: String; var checkpoint: UInt64 }
            var projections: [Report]
        }
        guard let (_, body) = try? await MetricsTests.get("http://127.0.0.1:\(port)/ready"),
              let ready = try? JSONDecoder().decode(Ready.self, from: Data(body.utf8)) else { return 0 }
        return ready.projections.first { $0.name == projection }?.checkpoint ?? 0
    }

    /// The snapshot's checkpoint, read from the head of its file: the snapshot is written with its keys
    /// in order, `checkpoint` first. (Decoding the whole state, 50k keys and megabytes, at every poll
    /// kept a core of this debug process busy while the fold it waits for sat idle.)
    func snapshotCheckpoint(_ store: SnapshotStore) -> UInt64 {
        guard let file = FileHandle(forReadingAtPath: store.url(name: "keys", version: 1).path) else { return 0 }
        defer { try? file.close() }
        let head = String(decoding: (try? file.read(upToCount: 64)) ?? Data(), as: UTF8.self)
        guard head.hasPrefix(#"{"checkpoint":"#) else { return 0 }
        return UInt64(head.dropFirst(#"{"checkpoint":"#.count).prefix { $0.isNumber }) ?? 0
    }

    @Test func killNineWhileApplyingThenRestartEqualsACleanRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build muster first (swift build)")
        try await apps.withTestLog { env in
            let total = 50_000
            try await appendInChunks(total, to: env.log) { _ in issuedKey(scopes: ["read:mobile"]).event }
            let data = env.server.directory.appendingPathComponent("killtest")
            let store = SnapshotStore(directory: data.appendingPathComponent("projections"))
            let logFile = env.server.directory.appendingPathComponent("muster.log")

            try await killMidwayThenRestart(natsURL: env.server.url, data: data, log: logFile, total: total, projection: KeysProjection.name) {
                snapshotCheckpoint(store)
            }

            let restarted = try #require(try store.load(KeysProjection.State.self, name: "keys", version: 1))
            let clean = try await ProjectionRunner<KeysProjection>.rebuild(
                log: env.log, store: SnapshotStore(directory: env.server.directory.appendingPathComponent("clean")),
                logger: env.environment.logger) { _ in }
            #expect(restarted.checkpoint == clean.checkpoint)
            #expect(restarted.state.keys.count == total)
            #expect(restarted.state == clean.state)
        }
    }

    /// The funnel fold's checkpoint as its database says, read as another process would.
    func tablesCheckpoint(_ store: SnapshotStore) -> UInt64 {
        guard let file = store.currentDatabase(name: FunnelProjection.name, version: FunnelProjection.version) else { return 0 }
        var configuration = Configuration()
        configuration.readonly = true
        guard let db = try? DatabaseQueue(path: file.path, configuration: configuration) else { return 0 }
        return (try? db.read { db in try UInt64.fetchOne(db, sql: "SELECT checkpoint FROM muster_fold") }).flatMap { $0 } ?? 0
    }

    /// Every hit, in a stable order, and the state: what two builds of the fold must agree on.
    func tablesContent(_ file: URL) throws -> (hits: [String], state: Data) {
        let db = try DatabaseQueue(path: file.path)
        return try db.read { db in
            let hits = try String.fetchAll(db, sql: """
                SELECT app || ' ' || funnel || ' ' || person || ' ' || at || ' ' || step || ' ' || segment || ' ' || app_version
                FROM funnel_hits ORDER BY app, funnel, person, at, step
                """)
            return (hits, try Data.fetchOne(db, sql: "SELECT state FROM muster_fold") ?? Data())
        }
    }

    @Test func killNineWhileATableFoldCommitsThenRestartEqualsACleanRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build muster first (swift build)")
        try await apps.withTestLog { env in
            let total = 60_000
            let steps = ["login", "services", "location", "booking_start", "booking_complete"]
            let stamp = "2026-11-21T14:00:00.000Z"
            try await appendInChunks(total, to: env.log) { i in
                FunnelReached(eventId: "f\(i)", sessionId: "s\(i / 5)",
                              context: AnalyticsContext(app: "offleash", appVersion: "2.3.0", osName: "iOS", osVersion: "17.5",
                                                        deviceModel: "iPhone15,2", anonymousId: "p\(i / 5)"),
                              times: AnalyticsTimes(createdAt: stamp, sentAt: stamp, receivedAt: stamp, occurredAt: stamp),
                              funnel: "booking", step: steps[i % 5], segment: i % 2 == 0 ? "new" : "returning")
            }
            let data = env.server.directory.appendingPathComponent("killtables")
            let store = SnapshotStore(directory: data.appendingPathComponent("projections"))
            let logFile = env.server.directory.appendingPathComponent("muster-tables.log")

            try await killMidwayThenRestart(natsURL: env.server.url, data: data, log: logFile, total: total, projection: FunnelProjection.name) {
                tablesCheckpoint(store)
            }

            let clean = SnapshotStore(directory: env.server.directory.appendingPathComponent("clean-tables"))
            let rebuilt = try await ProjectionRunner<FunnelProjection>.rebuild(log: env.log, store: clean, logger: env.environment.logger) { _ in }
            #expect(rebuilt.checkpoint == UInt64(total))
            let restarted = try tablesContent(try #require(store.currentDatabase(name: "funnel", version: FunnelProjection.version)))
            let expected = try tablesContent(try #require(clean.currentDatabase(name: "funnel", version: FunnelProjection.version)))
            #expect(restarted.hits.count == total)
            #expect(restarted.hits == expected.hits)
            #expect(restarted.state == expected.state)
        }
    }
}
