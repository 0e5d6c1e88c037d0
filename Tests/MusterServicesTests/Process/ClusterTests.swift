import AsyncHTTPClient
import Foundation
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterRuntime
import MusterTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// The log on three nats-servers with every event stored three times (R3), as
/// `deploy/docker-compose.cluster.yml` runs it. Four writers submit actions over HTTP, each with an
/// `Idempotency-Key`, and retry a failed write with the same key as the apps do. The stream's
/// leader is killed (SIGKILL), then, once it is back, a follower. No acknowledged write may be
/// missing or stored twice; writes may fail only while the cluster elects a new leader.
@Suite("The log on a three-node cluster", .serialized)
struct ClusterTests {
    /// What the writers saw, shared with the test that kills nodes.
    final class Load: Sendable {
        struct Failure { var at: ContinuousClock.Instant; var status: Int }
        struct Acknowledged { var name: String; var at: ContinuousClock.Instant }
        let acknowledged = Mutex<[Acknowledged]>([])
        let failures = Mutex<[Failure]>([])
        let stopping = Atomic<Bool>(false)

        var acknowledgedCount: Int { acknowledged.withLock { $0.count } }

        /// The writes that failed after `kill`, and the failed-write window: the longest time in
        /// which no write was acknowledged, from the last acknowledgement before `kill` on (to
        /// `end`, when given: the failures and a stretch still running then count up to it).
        func window(after kill: ContinuousClock.Instant, until end: ContinuousClock.Instant? = nil) -> (failed: Int, window: Duration) {
            let failed = failures.withLock { $0.filter { failure in failure.at >= kill && end.map { failure.at < $0 } ?? true }.count }
            let times = acknowledged.withLock { $0.map(\.at) }.sorted()
            let before = times.last { $0 < kill } ?? kill
            let after = [before] + times.filter { time in time >= kill && end.map { time < $0 } ?? true } + (end.map { [$0] } ?? [])
            return (failed, zip(after, after.dropFirst()).map { $1 - $0 }.max() ?? .zero)
        }
    }

    static let retryPause = Duration.milliseconds(100)

    /// The status, or 0 when no answer came.
    static func post(port: Int, key: String, idempotencyKey: String, body: String) async -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/mobile/submit-strike")
        request.method = .POST
        request.headers.add(name: "X-API-Key", value: key)
        request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(30)) else { return 0 }
        _ = try? await response.body.collect(upTo: 1 << 16)
        return Int(response.status.code)
    }

    /// One writer: a new action after each acknowledged one; a failed write is retried with the
    /// same key until it is taken (or the test is over).
    static func write(_ writer: Int, port: Int, key: String, load: Load) async {
        var item = 0
        while !load.stopping.load(ordering: .relaxed) {
            item += 1
            let name = "w\(writer)-\(item)"
            let body = """
            {"employer": {"name": "Cluster Freight \(writer)"}, "action": {"organization": "Local \(writer)", "actionType": "strike",
             "location": "Rapid City, SD", "startDate": "2026-11-01", "durationDays": 3, "description": "\(name)"}}
            """
            while true {
                let status = await post(port: port, key: key, idempotencyKey: name, body: body)
                if status == 201 {
                    load.acknowledged.withLock { $0.append(.init(name: name, at: .now)) }
                    break
                }
                load.failures.withLock { $0.append(.init(at: .now, status: status)) }
                if load.stopping.load(ordering: .relaxed) { return }
                try? await Task.sleep(for: retryPause)
            }
        }
    }

    static func streamCluster(_ log: EventLog) async throws -> ClusterInfo {
        guard let cluster = try await log.jetStream.streamInfo(log.configuration.eventsStream).cluster else {
            throw TestServerError("the stream reports no cluster")
        }
        return cluster
    }

    /// Waits until the stream has a leader and both other replicas have caught up with it.
    static func healthy(_ log: EventLog) async throws -> ClusterInfo {
        var latest: ClusterInfo?
        // "Current" and close behind in Raft's own log too (the server leaves `lag` out when it is 0).
        // That is not the stream's messages: a replica still fetching those after a partition is
        // "current" all the same (`PartitionTests.settled` waits for them).
        try await eventually("the stream has a leader and two current replicas", timeout: .seconds(60)) {
            latest = try? await streamCluster(log)
            guard let cluster = latest, cluster.leader != nil, let replicas = cluster.replicas else { return false }
            return replicas.count == 2 && replicas.allSatisfy { $0.current && ($0.lag ?? 0) < 100 }
        }
        return try latest.unwrapped("cluster info")
    }

    /// Waits until the writers have `more` acknowledgements past the count now.
    static func progress(_ load: Load, more: Int, _ what: String) async throws {
        let target = load.acknowledgedCount + more
        do {
            try await eventually(what, timeout: .seconds(60)) { load.acknowledgedCount >= target }
        } catch {
            let statuses = load.failures.withLock { $0.suffix(5).map(\.status) }
            throw TestServerError("\(error): \(load.acknowledgedCount) acknowledged, the last failures \(statuses)")
        }
    }

    @Test func killingTheStreamLeaderThenAFollowerLosesNoAcknowledgedWrite() async throws {
        let cluster = try await NATSTestCluster.start()
        // No rate limit: the four writers are the load, not abuse.
        try await apps.withLiveServer(["ingest"], on: cluster, configure: { $0.writeRatePerMinute = 0 }) { env, port in
            let key = try await env.key([OPLScopes.submitStrike])
            let load = Load()
            let (leader, follower) = try await withThrowingTaskGroup(of: Void.self) { writers in
                for writer in 1...4 {
                    writers.addTask { await Self.write(writer, port: port, key: key, load: load) }
                }
                do {
                    let killed = try await Self.killLeaderThenFollower(cluster, log: env.log, load: load)
                    load.stopping.store(true, ordering: .relaxed)
                    try await writers.waitForAll()
                    return killed
                } catch {
                    load.stopping.store(true, ordering: .relaxed) // the writers stop however the test ends
                    throw error
                }
            }

            let acknowledged = load.acknowledged.withLock { $0.map(\.name) }
            // A new consumer on a cluster that just had a node back may take a moment to be created.
            var events: [RecordedEvent]?
            try await eventually("the log read back", timeout: .seconds(60)) {
                events = try? await env.log.read(filter: "events.opl.action.*.submitted.v1")
                return events != nil
            }
            let stored = (events ?? []).compactMap { ($0.payload as? ActionSubmitted)?.action.description }
            var copies: [String: Int] = [:]
            for name in stored { copies[name, default: 0] += 1 }
            let missing = acknowledged.filter { copies[$0] == nil }
            let twice = copies.filter { $0.value > 1 }.keys.sorted()
            print("""
                cluster: \(acknowledged.count) acknowledged writes, \(missing.count) missing, \(twice.count) stored twice; \
                leader \(leader.name) killed: \(leader.failed) failed writes (503), none acknowledged for \(leader.window); \
                follower \(follower.name) killed: \(follower.failed) failed, none acknowledged for \(follower.window)
                """)
            #expect(missing.isEmpty, "acknowledged but not in the log: \(missing.prefix(20))")
            #expect(twice.isEmpty, "stored more than once: \(twice.prefix(20))")
            #expect(leader.window < .seconds(20), "writes failed for \(leader.window) after the leader died")
            #expect(follower.window < .seconds(20), "writes failed for \(follower.window) after a follower died")
            let failures = load.failures.withLock { $0 }
            #expect(failures.allSatisfy { $0.status == 503 }, "a failed write is a 503: \(Set(failures.map(\.status)))")
        }
    }

    /// A process without the deployment's replica setting never takes the log's copies down: a
    /// service started with the default keeps R3, and the operator's CLI changes no setting at all
    /// (the compose test lost acknowledged writes when `muster keys issue` made the log R1 under load).
    @Test func aProcessWithFewerReplicasNeverShrinksTheLog() async throws {
        let cluster = try await NATSTestCluster.start()
        defer { cluster.stop() }
        let connection = try await NATSConnection.connect(NATSConfiguration(url: cluster.urls, name: "replicas-test"))
        func log(replicas: Int, maxAge: Duration? = nil) -> EventLog {
            var configuration = LogConfiguration()
            configuration.replicas = replicas
            configuration.maxAge = maxAge
            return EventLog(jetStream: JetStream(connection), catalog: apps.catalog, configuration: configuration, source: "test")
        }
        try await log(replicas: 3).bootstrap(patience: .seconds(30))
        try await log(replicas: 1).bootstrap()
        var info = try await JetStream(connection).streamInfo("EVENTS")
        #expect(info.config.numReplicas == 3, "a service with the default replicas made the log R\(info.config.numReplicas)")
        #expect(try await JetStream(connection).streamInfo("DLQ").config.numReplicas == 3)
        try await log(replicas: 1, maxAge: .seconds(30 * 86_400)).bootstrap(updating: false)
        info = try await JetStream(connection).streamInfo("EVENTS")
        #expect(info.config.numReplicas == 3 && info.config.maxAge == 0, "the CLI changed the log's settings")
        await connection.drain()
    }

    struct Kill { var name: String; var failed: Int; var window: Duration }

    /// Under the writers' load: kills the stream's leader, waits for writes to resume, restarts
    /// it, waits until it caught up, then does the same with a follower.
    static func killLeaderThenFollower(_ cluster: NATSTestCluster, log: EventLog, load: Load) async throws -> (leader: Kill, follower: Kill) {
        try await progress(load, more: 100, "writes flow")
        let leader = try await kill(try await healthy(log).leader.unwrapped("leader"), cluster, load: load)
        let follower = try await kill(try await healthy(log).replicas.unwrapped("replicas").first.unwrapped("a follower").name,
                                      cluster, load: load)
        _ = try await healthy(log)
        try await progress(load, more: 50, "writes go on with all three back")
        return (leader, follower)
    }

    static func kill(_ name: String, _ cluster: NATSTestCluster, load: Load) async throws -> Kill {
        let node = try cluster.node(named: name).unwrapped(name)
        let killed = ContinuousClock.now
        try await node.crash()
        try await progress(load, more: 100, "writes go on after \(name) died")
        let figures = load.window(after: killed)
        try await node.restart()
        return Kill(name: name, failed: figures.failed, window: figures.window)
    }
}

extension Optional {
    func unwrapped(_ what: String) throws -> Wrapped {
        guard let self else { throw TestServerError("no \(what)") }
        return self
    }
}
