package import Foundation
import Logging
import MusterEvents
package import MusterLog
package import MusterNATS
package import MusterPlatform
package import MusterRuntime
package import MusterTesting
import Prometheus

/// A real nats-server (or a cluster of them), a connection, the log with its streams, and a data
/// folder: all fresh, for the apps a test composes.
package struct TestLog: Sendable {
    /// The server, or a cluster's first node.
    package let server: NATSTestServer
    package let cluster: NATSTestCluster?
    package let connection: NATSConnection
    package let environment: MusterEnvironment
    package let dataDirectory: URL
    package var log: EventLog { environment.log }

    /// - Parameter cluster: run on these nodes with the log replicated on each; a fresh server otherwise.
    package static func start(apps: MusterApps, on cluster: NATSTestCluster? = nil,
                             _ configure: (inout MusterConfiguration) -> Void = { _ in }) async throws -> TestLog {
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
        configuration.variables["MUSTER_GAZETTEER"] = Repository.path("Tests/Fixtures/gazetteer-sample.tsv")
        try configuration.readSettings(apps.settings)
        configure(&configuration)
        let environment = MusterEnvironment(configuration: configuration, logger: logger, connection: connection,
                                            catalog: apps.catalog, metrics: PrometheusCollectorRegistry(), source: "test",
                                            apps: apps.directory)
        try await environment.log.bootstrap(patience: .seconds(30))
        return TestLog(server: server, cluster: cluster, connection: connection, environment: environment,
                       dataDirectory: URL(fileURLWithPath: configuration.dataDirectory))
    }

    package func stop() async {
        await connection.close()
        if let cluster { cluster.stop() } else { server.stop() }
    }
}

extension TestLog {
    /// Waits until projection `name` has folded the event at `sequence`.
    package func settled(_ name: String, at sequence: UInt64) async throws {
        try await eventually("\(name) at \(sequence)") {
            await environment.projectionReports().first { $0.name == name }.map { $0.checkpoint >= sequence } ?? false
        }
    }

    /// Waits until every fold of the process has opened (what `/ready` waits for before a load
    /// balancer sends traffic): a request sooner would meet "still opening", a 503 its client is told
    /// to retry, and on a loaded machine a fold's first open can outlast a test's setup.
    package func foldsOpened() async throws {
        try await eventually("every fold open") { await environment.projectionReports().allSatisfy(\.opened) }
    }

    /// Issues a key with `scopes` and waits until the keys projection knows it.
    package func key(app: String = "opl", _ scopes: [String]) async throws -> String {
        let (key, event) = issuedKey(app: app, scopes: scopes)
        try await settled("keys", at: try await log.append(event).sequence)
        return key
    }
}

/// Makes an issued-key event with a real key.
package func issuedKey(app: String = "opl", scopes: [String]) -> (key: String, event: APIKeyIssued) {
    let (key, keyId) = APIKey.generate(app: app)
    return (key, APIKeyIssued(keyId: keyId, app: app, scopes: scopes, keyHash: APIKey.hash(key), keyPrefix: APIKey.prefix(key)))
}
