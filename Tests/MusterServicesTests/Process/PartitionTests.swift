import AsyncHTTPClient
import Foundation
import Glibc
import Logging
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// The log at R3 on three nats-servers that are real hosts (network namespaces on a bridge the
/// test makes), `muster serve ingest` outside them with all three in its list, six writers
/// retrying with their `Idempotency-Key` as the apps do. Three failures, one after the other:
/// muster's own node cut off for 60 s, the stream's leader cut from its peers only, two of three
/// nodes killed and brought back. No acknowledged write may be lost or stored twice; every write is
/// answered (201 or 503) within its deadline; `/health` always answers within 100 ms; `/ready`
/// tells the truth. Skips where namespaces cannot be made (not root, no iproute2).
@Suite("A partitioned NATS node never strands muster", .serialized)
struct PartitionTests {
    static let writeDeadline = Duration.seconds(5)

    /// What the probes of `/health` and `/ready` saw.
    final class Probes: Sendable {
        let healthSlowest = Mutex<Duration>(.zero)
        let healthAnswered = Mutex(0)
        /// The slow ones (over 50 ms): when they were sent, to tell which failure they came with, and how
        /// long of each the connection took to open (a listen queue or a lost SYN, not the answer).
        let healthSlow = Mutex<[(at: ContinuousClock.Instant, took: Duration, connecting: Duration)]>([])
        let healthFailures = Mutex(0)
        let ready = Mutex<[(at: ContinuousClock.Instant, ok: Bool)]>([])
        let stopping = Atomic<Bool>(false)

        /// The first time at or after `from` that `/ready` said 200, if it did.
        func readyAgain(after from: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            ready.withLock { $0.first { $0.at >= from && $0.ok }?.at }
        }

        func sawNotReady(between start: ContinuousClock.Instant, _ end: ContinuousClock.Instant) -> Bool {
            ready.withLock { $0.contains { $0.at >= start && $0.at <= end && !$0.ok } }
        }
    }

    /// Answers slower than their deadline, and statuses other than 201 and 503.
    final class Answers: Sendable {
        let slowest = Mutex<Duration>(.zero)
        let strange = Mutex<[Int]>([])
    }

    struct Scenario: CustomStringConvertible {
        var name: String
        /// The longest stretch without an acknowledged write while the failure lasted, and the 503s then.
        var window: Duration
        var failed: Int
        /// The same from the heal on: the cluster's own re-election when the node comes back.
        var afterHeal: Duration
        var failedAfterHeal: Int
        var readyBack: Duration?
        var at: ContinuousClock.Instant
        var description: String {
            "\(name): writes failed for \(window) (\(failed) answered 503), after the heal for \(afterHeal) (\(failedAfterHeal) answered 503), "
                + "/ready 200 again \(readyBack.map { "\($0)" } ?? "-") after the first write got through"
        }
    }

    /// `scripts/test.sh` runs it alone after the other tests: beside them, a two-core machine is
    /// too busy for any HTTP answer to be sure of 100 ms, so `/health` could not be judged.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MUSTER_PARTITION_TESTS"] == "1", "scripts/test.sh runs it alone, afterwards"),
          .enabled(if: NetnsCluster.available, "skipped: making network namespaces needs root and iproute2"))
    func cutNodesLeadersAndQuorumLoseNoAcknowledgedWrite() async throws {
        let cluster = try await NetnsCluster.start()
        defer { cluster.stop() }
        var logger = Logger(label: "partition-test")
        logger.logLevel = .error
        let connection = try await NATSConnection.connect(NATSConfiguration(url: cluster.urls, name: "partition-test"), logger: logger)
        var configuration = LogConfiguration()
        configuration.replicas = 3
        let log = EventLog(jetStream: JetStream(connection), catalog: MusterProcess.apps.catalog, configuration: configuration,
                           source: "partition-test", logger: logger)
        try await log.bootstrap(patience: .seconds(60))
        let (key, issued) = issuedKey(scopes: [OPLScopes.submitStrike])
        try await log.append(issued)

        let port = try freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("muster-partition-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("muster.log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let muster = Process()
        muster.executableURL = URL(fileURLWithPath: KillNineTests.binary)
        muster.arguments = ["serve", "ingest", "--nats-url", cluster.urls, "--data-dir", directory.appendingPathComponent("data").path,
                            "--port", "\(port)", "--metrics-port", "off", "--instance", "parttest", "--log-level", "notice"]
        muster.environment = ProcessInfo.processInfo.environment.merging([
            "MUSTER_STREAM_REPLICAS": "3", "MUSTER_RATE_WRITE": "0", "MUSTER_WRITE_DEADLINE": "5",
        ]) { _, new in new }
        let handle = try FileHandle(forWritingTo: output)
        muster.standardOutput = handle
        muster.standardError = handle
        try muster.runAlone()
        defer { if muster.ending == nil { kill(muster.processIdentifier, SIGKILL) } }
        try await eventually("muster takes the key", timeout: .seconds(60)) {
            await ClusterTests.post(port: port, key: key, idempotencyKey: "warm-up", body: Self.body("warm-up")) == 201
        }

        let load = ClusterTests.Load()
        let answers = Answers()
        let probes = Probes()
        let begun = ContinuousClock.now
        let scenarios: [Scenario]
        do {
            scenarios = try await run(port: port, key: key, cluster: cluster, log: log, load: load, answers: answers, probes: probes)
        } catch {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            print("partition: muster's last lines:\n\(text.split(separator: "\n").suffix(60).joined(separator: "\n"))")
            for node in cluster.nodes {
                print("partition: \(node.name)'s last lines:\n\(cluster.logTail(node).joined(separator: "\n"))")
            }
            throw error
        }

        let acknowledged = load.acknowledged.withLock { $0.map(\.name) }
        var events: [RecordedEvent]?
        try await eventually("the log read back", timeout: .seconds(60)) {
            events = try? await log.read(filter: "events.opl.action.*.submitted.v1")
            return events != nil
        }
        var copies: [String: Int] = [:]
        for case let submitted as ActionSubmitted in (events ?? []).map(\.payload) { copies[submitted.action.description, default: 0] += 1 }
        let missing = acknowledged.filter { copies[$0] == nil }
        let twice = copies.filter { $0.value > 1 }.keys.sorted()
        let mustersLog = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let stateLines = mustersLog.split(separator: "\n").map(String.init)
            .filter { ["log unreachable", "log reachable again", "leaving NATS server", "staying on it"].contains(where: $0.contains) }
        print("""
            partition: \(acknowledged.count) acknowledged writes, \(missing.count) missing, \(twice.count) stored twice; \
            slowest answer \(answers.slowest.withLock { $0 }), slowest /health \(probes.healthSlowest.withLock { $0 }) \
            (\(probes.healthSlow.withLock { $0.filter { $0.took >= .milliseconds(100) }.count }) of \(probes.healthAnswered.withLock { $0 }) probes at 100 ms or more)
            \(scenarios.map { "partition: \($0) (from \($0.at - begun))" }.joined(separator: "\n"))
            partition: /health over 50 ms at \(probes.healthSlow.withLock { $0.map { "\($0.at - begun): \($0.took) (connecting \($0.connecting))" } })
            \(stateLines.map { "partition: muster said: \($0.suffix(200))" }.joined(separator: "\n"))
            """)
        #expect(missing.isEmpty, "acknowledged but not in the log: \(missing.prefix(20))")
        #expect(twice.isEmpty, "stored more than once: \(twice.prefix(20))")
        #expect(answers.strange.withLock { $0 }.isEmpty, "every write is answered 201 or 503: \(answers.strange.withLock { Set($0) })")
        // The deadline, plus what HTTP and a loaded two-core machine add around it.
        #expect(answers.slowest.withLock { $0 } < Self.writeDeadline + .seconds(2), "a write waited past its deadline")
        // Every probe within 100 ms was asked for. The late probes of earlier runs (0.2-1.2 s, right after
        // the log came back) were a fold catching up on the event loop /health is served on; folds run
        // on threads of their own now (`FoldExecutor`), and four runs had none past 75 ms. A probe
        // of a loaded two-core machine may still miss 100 ms now and then: one in a hundred may, and
        // none may take a quarter of a second.
        let over = probes.healthSlow.withLock { $0.filter { $0.took >= .milliseconds(100) }.count }
        #expect(over * 100 <= probes.healthAnswered.withLock { $0 }, "\(over) /health probes took 100 ms or more")
        #expect(probes.healthSlowest.withLock { $0 } < .milliseconds(250), "/health took a quarter of a second or more")
        #expect(probes.healthFailures.withLock { $0 } == 0, "/health went unanswered")
        // Muster's part: off its cut node within seconds. When the node comes back, the stream may have
        // no leader while nats-server elects one (5 s in one run, 25 s in another on a loaded two-core
        // machine): that is the next scenario's subject, and `cut` waits for writes to flow again.
        #expect(scenarios[0].window < .seconds(10), "writes came back \(scenarios[0].window) after muster's node was cut")
        for scenario in scenarios {
            #expect(scenario.readyBack.map { $0 < .seconds(10) } ?? false, "/ready back to 200: \(scenario)")
        }
        #expect(!stateLines.isEmpty, "the outages were logged as state changes")
        #expect(!mustersLog.contains("Illegal to call Drain"))
        try await connection.flush()
        await connection.close()
    }


    /// The writers and probes, through the three failures one after the other.
    func run(port: Int, key: String, cluster: NetnsCluster, log: EventLog, load: ClusterTests.Load, answers: Answers,
             probes: Probes) async throws -> [Scenario] {
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for writer in 1...6 {
                tasks.addTask { await Self.write(writer, port: port, key: key, load: load, answers: answers) }
            }
            tasks.addTask { await Self.probeHealth(port: port, probes: probes) }
            tasks.addTask { await Self.probeReady(port: port, probes: probes) }
            defer {
                load.stopping.store(true, ordering: .relaxed)
                probes.stopping.store(true, ordering: .relaxed)
            }
            try await ClusterTests.progress(load, more: 100, "writes flow")
            return [
                try await Self.cutMustersNode(cluster, log: log, load: load, probes: probes),
                try await Self.cutLeaderFromPeers(cluster, log: log, load: load, probes: probes),
                try await Self.killTwo(cluster, log: log, load: load, probes: probes),
            ]
        }
    }

    static func body(_ name: String) -> String {
        """
        {"employer": {"name": "Partition Freight"}, "action": {"organization": "Local 9", "actionType": "strike",
         "location": "Rapid City, SD", "startDate": "2026-11-01", "durationDays": 3, "description": "\(name)"}}
        """
    }

    /// One writer: a new action after each acknowledged one, a failed one retried with its key.
    static func write(_ writer: Int, port: Int, key: String, load: ClusterTests.Load, answers: Answers) async {
        var item = 0
        while !load.stopping.load(ordering: .relaxed) {
            item += 1
            let name = "p\(writer)-\(item)"
            while true {
                let sent = ContinuousClock.now
                let status = await ClusterTests.post(port: port, key: key, idempotencyKey: name, body: body(name))
                let took = ContinuousClock.now - sent
                answers.slowest.withLock { $0 = max($0, took) }
                if status == 201 {
                    load.acknowledged.withLock { $0.append(.init(name: name, at: .now)) }
                    break
                }
                if status != 503 { answers.strange.withLock { $0.append(status) } }
                load.failures.withLock { $0.append(.init(at: .now, status: status)) }
                if load.stopping.load(ordering: .relaxed) { return }
                try? await Task.sleep(for: ClusterTests.retryPause)
            }
        }
    }

    /// `GET /health` five times a second on a thread of its own (the test's own tasks must not
    /// add their waits to what is measured), each on a new connection.
    static func probeHealth(port: Int, probes: Probes) async {
        await offThread {
            while !probes.stopping.load(ordering: .relaxed) {
                let started = ContinuousClock.now
                var connected = started
                let answer = (try? RawSocket(port: port)).map { socket -> String in
                    connected = .now
                    try? socket.send("GET /health HTTP/1.1\r\nHost: muster\r\nConnection: close\r\n\r\n")
                    return socket.receive(wait: .seconds(2))
                } ?? ""
                let took = ContinuousClock.now - started
                if answer.hasPrefix("HTTP/1.1 200") {
                    probes.healthSlowest.withLock { $0 = max($0, took) }
                    probes.healthAnswered.withLock { $0 += 1 }
                    if took > .milliseconds(50) { probes.healthSlow.withLock { $0.append((started, took, connected - started)) } }
                } else {
                    probes.healthFailures.withLock { $0 += 1 }
                }
                usleep(200_000)
            }
        }
    }

    static func probeReady(port: Int, probes: Probes) async {
        while !probes.stopping.load(ordering: .relaxed) {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/ready")
            request.method = .GET
            let ok = (try? await HTTPClient.shared.execute(request, timeout: .seconds(2)))?.status == .ok
            probes.ready.withLock { $0.append((.now, ok)) }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    /// The node muster is connected to, from the servers' own connection lists.
    static func mustersNode(_ cluster: NetnsCluster) async throws -> NetnsCluster.Node {
        for node in cluster.nodes {
            let request = HTTPClientRequest(url: "\(node.monitor)/connz?limit=1024")
            guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)),
                  let body = try? await response.body.collect(upTo: 1 << 22) else { continue }
            if String(buffer: body).contains("\"muster-parttest\"") { return node }
        }
        throw TestServerError("muster is connected to no node")
    }

    /// After the failure at `at` and its repair: the failed-write window, and how long `/ready`
    /// took to say 200 once writes got through again.
    static func figures(_ name: String, at: ContinuousClock.Instant, healed: ContinuousClock.Instant, load: ClusterTests.Load,
                        probes: Probes) async throws -> Scenario {
        let (failed, window) = load.window(after: at, until: healed)
        let (failedAfterHeal, afterHeal) = load.window(after: healed)
        // Writes got through again at the end of the longest stretch without an acknowledgement.
        let times = load.acknowledged.withLock { $0.map(\.at) }.sorted()
        let after = [times.last { $0 < at } ?? at] + times.filter { $0 >= at }
        let firstAck = zip(after, after.dropFirst()).max { $0.1 - $0.0 < $1.1 - $1.0 }?.1 ?? .now
        var readyBack: Duration?
        try? await eventually("/ready 200 after \(name)", timeout: .seconds(30)) {
            readyBack = probes.readyAgain(after: firstAck).map { $0 - firstAck }
            return readyBack != nil
        }
        return Scenario(name: name, window: window, failed: failed, afterHeal: afterHeal, failedAfterHeal: failedAfterHeal, readyBack: readyBack,
                        at: at)
    }

    static func cutMustersNode(_ cluster: NetnsCluster, log: EventLog, load: ClusterTests.Load, probes: Probes) async throws -> Scenario {
        var node = try await mustersNode(cluster)
        // Muster's node is made a follower first: this scenario is about muster moving, the next
        // one about the cluster electing a leader (nats-server takes 4-9 s more to elect one).
        for _ in 0..<5 where try await ClusterTests.healthy(log).leader == node.name {
            _ = try? await log.jetStream.connection.request("$JS.API.STREAM.LEADER.STEPDOWN.\(log.configuration.eventsStream)")
            try await Task.sleep(for: .seconds(2))
            node = try await mustersNode(cluster)
        }
        // A step-down answers muster's appends with no responders for a few seconds: an election, not
        // a dead server, so muster stays where it is (it once left, reached the node cut next and
        // waited there: 28 s of failed writes). Cut the node it is on once the election is over.
        try await Task.sleep(for: .seconds(6))
        let stayedOn = node.name
        node = try await mustersNode(cluster)
        #expect(node.name == stayedOn, "muster left \(stayedOn) for \(node.name) during a stream leader election")
        return try await cut(node, for: .seconds(60), "muster's node \(node.name) cut off", cluster.cutOff, cluster, log: log, load: load, probes: probes)
    }

    static func cutLeaderFromPeers(_ cluster: NetnsCluster, log: EventLog, load: ClusterTests.Load, probes: Probes) async throws -> Scenario {
        let leader = try cluster.node(named: try await ClusterTests.healthy(log).leader.unwrapped("leader")).unwrapped("leader node")
        return try await cut(leader, for: .seconds(15), "the leader \(leader.name) cut from its peers", cluster.cutFromPeers, cluster,
                             log: log, load: load, probes: probes)
    }

    /// Cuts `node` as `how` does for `duration` under the writers' load (which must go on
    /// meanwhile), heals it, and waits until the cluster is whole and writes flow.
    static func cut(_ node: NetnsCluster.Node, for duration: Duration, _ name: String, _ how: (NetnsCluster.Node) throws -> Void,
                    _ cluster: NetnsCluster, log: EventLog, load: ClusterTests.Load, probes: Probes) async throws -> Scenario {
        let at = ContinuousClock.now
        try how(node)
        try await ClusterTests.progress(load, more: 50, "writes go on while \(name)")
        try await Task.sleep(until: at + duration)
        try cluster.heal(node)
        let healed = ContinuousClock.now
        try await settled(cluster, log: log)
        try await ClusterTests.progress(load, more: 50, "writes go on with \(node.name) healed")
        return try await figures("\(name) for \(duration)", at: at, healed: healed, load: load, probes: probes)
    }

    /// After a heal, waits until every node's copy of the log is level with the others. Raft calls
    /// a replica "current" before its stream has fetched the messages it missed; cutting the leader
    /// while one still does left the other two without a quorum for a minute (twice in four runs).
    static func settled(_ cluster: NetnsCluster, log: EventLog) async throws {
        _ = try await ClusterTests.healthy(log)
        let started = ContinuousClock.now
        var seen: [String: UInt64] = [:]
        defer { print("partition: every node's copy level \(ContinuousClock.now - started) after Raft said current: \(seen.sorted { $0.key < $1.key })") }
        do {
            try await eventually("every node's copy of the log level with the others", timeout: .seconds(90)) {
                for node in cluster.nodes { seen[node.name] = await lastSequence(of: log.configuration.eventsStream, on: node) }
                let sequences = seen.values
                return sequences.count == cluster.nodes.count && (sequences.max() ?? 0) - (sequences.min() ?? 0) < 500
            }
        } catch {
            throw TestServerError("\(error): last sequences \(seen.sorted { $0.key < $1.key })")
        }
    }

    /// The stream's last sequence in `node`'s own copy, from its monitoring port.
    static func lastSequence(of stream: String, on node: NetnsCluster.Node) async -> UInt64? {
        struct Jsz: Decodable {
            struct Account: Decodable { var stream_detail: [Stream]? }
            struct Stream: Decodable { var name: String; var state: State }
            struct State: Decodable { var last_seq: UInt64 }
            var account_details: [Account]?
        }
        let request = HTTPClientRequest(url: "\(node.monitor)/jsz?accounts=true&streams=true")
        guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)),
              let body = try? await response.body.collect(upTo: 1 << 22),
              let jsz = try? JSONDecoder().decode(Jsz.self, from: Data(body.readableBytesView)) else { return nil }
        return jsz.account_details?.flatMap { $0.stream_detail ?? [] }.first { $0.name == stream }?.state.last_seq
    }

    static func killTwo(_ cluster: NetnsCluster, log: EventLog, load: ClusterTests.Load, probes: Probes) async throws -> Scenario {
        let info = try await ClusterTests.healthy(log)
        let names = [try info.leader.unwrapped("leader"), try info.replicas.unwrapped("replicas").first.unwrapped("a follower").name]
        let killed = try names.map { try cluster.node(named: $0).unwrapped($0) }
        let at = ContinuousClock.now
        for node in killed { try await cluster.crash(node) }
        try await Task.sleep(for: .seconds(15))
        let notReady = probes.sawNotReady(between: at, .now)
        for node in killed { try await cluster.launch(node) }
        let healed = ContinuousClock.now
        try await ClusterTests.progress(load, more: 50, "writes go on with \(names.joined(separator: " and ")) back")
        #expect(notReady, "/ready said 503 while two of three nodes were down")
        return try await figures("\(names.joined(separator: " and ")) killed for 15 s", at: at, healed: healed, load: load, probes: probes)
    }
}
