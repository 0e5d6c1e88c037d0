import Foundation
import Logging
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import Prometheus

/// A real nats-server (or a cluster of them), a connection, the log with its streams, and a data
/// folder: all fresh.
struct TestLog {
    /// The server, or a cluster's first node.
    let server: NATSTestServer
    let cluster: NATSTestCluster?
    let connection: NATSConnection
    let environment: MusterEnvironment
    let dataDirectory: URL
    var log: EventLog { environment.log }

    /// - Parameter cluster: run on these nodes with the log replicated on each; a fresh server otherwise.
    static func start(on cluster: NATSTestCluster? = nil, _ configure: (inout MusterConfiguration) -> Void = { _ in }) async throws -> TestLog {
        let server: NATSTestServer
        if let first = cluster?.nodes.first { server = first } else { server = try await NATSTestServer.start() }
        let url = cluster?.urls ?? server.url
        var logger = Logger(label: "test")
        logger.logLevel = .error
        let connection = try await NATSConnection.connect(NATSConfiguration(url: url, name: "test"), logger: logger)
        var configuration = MusterConfiguration()
        configuration.natsURL = url
        configuration.streamReplicas = cluster?.nodes.count ?? 1
        configuration.dataDirectory = server.directory.appendingPathComponent("muster").path
        configuration.instance = "test"
        configuration.gazetteerPath = Repository.path("Tests/Fixtures/gazetteer-sample.tsv")
        configure(&configuration)
        let environment = MusterEnvironment(configuration: configuration, logger: logger, connection: connection,
                                            catalog: MusterProcess.catalog, metrics: PrometheusCollectorRegistry(), source: "test")
        try await environment.log.bootstrap(patience: .seconds(30))
        return TestLog(server: server, cluster: cluster, connection: connection, environment: environment,
                       dataDirectory: URL(fileURLWithPath: configuration.dataDirectory))
    }

    func stop() async {
        await connection.close()
        if let cluster { cluster.stop() } else { server.stop() }
    }
}

extension TestLog {
    /// Waits until projection `name` has folded the event at `sequence`.
    func settled(_ name: String, at sequence: UInt64) async throws {
        try await eventually("\(name) at \(sequence)") {
            await environment.projectionReports().first { $0.name == name }.map { $0.checkpoint >= sequence } ?? false
        }
    }

    /// Issues a key with `scopes` and waits until the keys projection knows it.
    func key(app: String = "opl", _ scopes: [String]) async throws -> String {
        let (key, event) = issuedKey(app: app, scopes: scopes)
        try await settled("keys", at: try await log.append(event).sequence)
        return key
    }
}

/// Runs `body` with a fresh log; everything is torn down afterwards.
func withTestLog<T>(on cluster: NATSTestCluster? = nil, _ configure: (inout MusterConfiguration) -> Void = { _ in },
                   _ body: (TestLog) async throws -> T) async throws -> T {
    let env = try await TestLog.start(on: cluster, configure)
    do {
        let result = try await body(env)
        await env.stop()
        return result
    } catch {
        await env.stop()
        throw error
    }
}


/// Makes an issued-key event with a real key.
func issuedKey(app: String = "opl", scopes: [String]) -> (key: String, event: APIKeyIssued) {
    let (key, keyId) = APIKey.generate(app: app)
    return (key, APIKeyIssued(keyId: keyId, app: app, scopes: scopes, keyHash: APIKey.hash(key), keyPrefix: APIKey.prefix(key)))
}

extension EventLog {
    /// Every event on `filter`, in order, read through a throwaway consumer.
    func read(filter: String) async throws -> [RecordedEvent] {
        var config = ConsumerConfig(durableName: "test_read_\(UInt32.random(in: 0...UInt32.max))")
        config.ackPolicy = .none
        config.filterSubject = filter
        config.inactiveThreshold = 10_000_000_000
        let info = try await jetStream.ensureConsumer(stream: configuration.eventsStream, config)
        guard info.numPending > 0 else { return [] }
        var iterator = PullConsumer(jetStream, stream: configuration.eventsStream, consumer: config.durableName!, batch: 256,
                                    expires: .milliseconds(300)).makeAsyncIterator()
        var events: [RecordedEvent] = []
        while UInt64(events.count) < info.numPending, case .messages(let messages)? = try await iterator.nextBatch(max: 256) {
            for message in messages {
                events.append(try catalog.decode(subject: message.subject, sequence: message.delivery.streamSequence, payload: message.payload))
            }
        }
        return events
    }
}
