import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import MusterCommandLine
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterServices
import Synchronization

/// `make bench` drives these against a fresh nats-server (`bench/*.sh` print the ratios). A
/// program of its own, so no benchmark code ships in the production `muster`.
@main
struct Bench: AsyncParsableCommand {
    static func main() async {
        installMusterExecutor()
        await Self.main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "muster-bench",
        abstract: "Measure Muster's append, replay, HTTP and geocoding against the baselines (used by make bench).",
        subcommands: [Append.self, Replay.self, Pull.self, EnvelopeSize.self, Decode.self, Codec.self, OPLLoad.self, Geocode.self,
                       AnalyticsSize.self, AnalyticsPost.self, AnalyticsLoad.self, AnalyticsReplay.self, FunnelLoad.self, FunnelReplay.self, ModerationChecksCost.self, PushLoad.self, ProximityApprove.self,
                       PoPSize.self, PoPPost.self, PoPPull.self, PoPLoad.self, PoPReplay.self, PoPFoldCost.self,
                       FieldSize.self, FieldPost.self, FieldPull.self, FieldUpload.self, FieldFanout.self,
                       FieldSnapshotCost.self, Argon2.self, NotifyLoad.self, FoldLoad.self, FoldReplay.self])

    /// A small event used only by the benchmark (registered only in the benchmark's catalog).
    struct Sample: EventPayload {
        static let eventType = EventType(app: "bench", aggregate: "sample", event: "recorded", major: 1)
        var sampleId: String
        var value: Int
        var note: String
        var aggregateID: String { sampleId }
        func validate() throws {
            try Validate.length(sampleId, 1...32, field: "/sampleId")
            try Validate.length(note, 0...200, field: "/note")
        }
        static func make(_ i: Int) -> Sample {
            Sample(sampleId: "s\(i % 1000)", value: i, note: "reading \(i) from the benchmark's imaginary sensor")
        }
    }

    /// Counts samples per aggregate and sums their values.
    enum SampleTotals: Projection {
        struct State: Codable, Sendable, Equatable { var count = 0; var sum = 0; var perSample: [String: Int] = [:] }
        static let name = "bench-samples"
        static let version = 1
        static let filterSubjects = ["events.bench.>"]
        static let initialState = State()
        static func apply(_ event: RecordedEvent, to state: inout State) throws {
            guard let sample = event.payload(as: Sample.self) else { return }
            state.count += 1
            state.sum += sample.value
            state.perSample[sample.sampleId, default: 0] += 1
        }
    }

    static var catalog: EventCatalog {
        var catalog = MusterProcess.apps.catalog
        catalog.register(Sample.self)
        return catalog
    }

    static func withBenchLog<T: Sendable>(_ common: CommonOptions, _ body: (EventLog) async throws -> T) async throws -> T {
        try await common.withLog { log, config, _ in
            try await body(EventLog(jetStream: log.jetStream, catalog: catalog, configuration: config.logConfiguration, source: "bench"))
        }
    }

    struct EnvelopeSize: AsyncParsableCommand {
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in print(try log.prepare(Sample.make(123_456)).payload.count) }
        }
    }

    /// Decoding alone, no I/O: what one replayed event costs in JSON and validation.
    struct Decode: AsyncParsableCommand {
        @Option var count = 200_000
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                let messages = try (0..<1000).map { try log.prepare(Sample.make($0)) }
                var start = ContinuousClock.now
                var n = 0
                for i in 0..<count {
                    let m = messages[i % 1000]
                    let e = try log.catalog.decode(subject: m.subject, sequence: UInt64(i + 1), payload: m.payload)
                    n &+= e.aggregateID.count
                }
                print("decode_per_sec", Int(Double(count) / (ContinuousClock.now - start).seconds), n)
                // As a fold reads what Muster appended: stamped, so the rules are not run again.
                start = ContinuousClock.now
                for i in 0..<count {
                    let m = messages[i % 1000]
                    let e = try log.catalog.decode(subject: m.subject, sequence: UInt64(i + 1), payload: m.payload,
                                                   validated: m.headers[EventCatalog.validatedHeader])
                    n &+= e.aggregateID.count
                }
                print("decode_stamped_per_sec", Int(Double(count) / (ContinuousClock.now - start).seconds), n)
                start = ContinuousClock.now
                for i in 0..<count { _ = try log.prepare(Sample.make(i)) }
                print("prepare_per_sec", Int(Double(count) / (ContinuousClock.now - start).seconds))
            }
        }
    }

    struct Append: AsyncParsableCommand {
        @Option var count = 1_000_000
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                let chunk = 50_000
                var done = 0
                var bytes = 0
                let start = ContinuousClock.now
                while done < count {
                    let payloads = (done..<min(count, done + chunk)).map(Sample.make)
                    try await Bench.appendAll(payloads, to: log)
                    bytes += payloads.count
                    done += payloads.count
                }
                let seconds = (ContinuousClock.now - start).seconds
                print(#"{"count": \#(count), "append_per_sec": \#(Int(Double(count) / seconds))}"#)
                _ = bytes
            }
        }
    }

    struct Replay: AsyncParsableCommand {
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                try await Bench.timeRebuild(SampleTotals.self, log: log) { $0.count }
            }
        }
    }
}

extension Bench {
    /// Rebuilds projection `P` from sequence 1 into a scratch folder and prints events per second
    /// (`count` says how many events the final state folded), the process's peak resident memory
    /// and the bytes the fold left on disk (snapshot file or database).
    /// Sends requests 0..<count over `connections` keep-alive connections, each connection taking
    /// the next index as soon as it is free; `send` makes request `index` and answers how many items
    /// the server took. The client is shut down whatever happens.
    static func drive(_ count: Int, connections: Int, _ send: @escaping @Sendable (HTTPClient, Int) async throws -> Int) async throws
        -> (seconds: Double, taken: Int) {
        let client = Bench.client(connections)
        let next = Counter(), taken = Counter()
        let start = ContinuousClock.now
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<connections {
                    group.addTask {
                        while true {
                            let index = next.value.add(1, ordering: .relaxed).oldValue
                            guard index < count else { return }
                            taken.value.add(try await send(client, index), ordering: .relaxed)
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        let seconds = (ContinuousClock.now - start).seconds
        try await client.shutdown()
        return (seconds, taken.value.load(ordering: .relaxed))
    }

    static func timeRebuild<P: Projection>(_ type: P.Type, log: EventLog, count: (P.State) -> Int) async throws {
        let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("muster-bench-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: store.directory) }
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let start = ContinuousClock.now
        let snapshot = try await ProjectionRunner<P>.rebuild(log: log, store: store, logger: logger) { _ in }
        let seconds = (ContinuousClock.now - start).seconds
        let n = count(snapshot.state)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: store.directory.path))?.reduce(0) { total, file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: store.directory.appendingPathComponent(file).path)
            return total + ((attributes?[.type] as? FileAttributeType) == .typeRegular ? (attributes?[.size] as? Int ?? 0) : 0)
        } ?? 0
        print(#"{"count": \#(n), "replay_per_sec": \#(Int(Double(n) / seconds)), "seconds": \#(seconds), "max_rss_mb": \#(usage.ru_maxrss / 1024), "stored_bytes": \#(stored)}"#)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
