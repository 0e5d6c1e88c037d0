import Foundation
import Logging
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterPlatform
import MusterRuntime
import MusterTesting
import Testing

@Suite("deploy/: compose files, NATS configs and per-service permissions")
struct DeployTests {
    static let passwords = ["INGEST_NATS_PASSWORD": "ingest-pw", "QUERY_NATS_PASSWORD": "query-pw",
                            "GEOCODE_NATS_PASSWORD": "geocode-pw", "MODERATION_NATS_PASSWORD": "moderation-pw",
                            "COLLECTOR_NATS_PASSWORD": "collector-pw", "NOTIFIER_NATS_PASSWORD": "notifier-pw",
                            "ADMIN_NATS_PASSWORD": "admin-pw", "CLUSTER_PASSWORD": "cluster-pw"]

    @Test(arguments: [["deploy/docker-compose.yml"], ["deploy/docker-compose.yml", "deploy/docker-compose.cluster.yml"]])
    func composeFilesAreValid(files: [String]) async throws {
        let result = try await Repository.run(["docker-compose"] + files.flatMap { ["-f", $0] } + ["config", "-q"])
        #expect(result.status == 0, "docker-compose config: \(result.error) (install it with `make deps`)")
    }

    @Test(arguments: ["deploy/nats/nats.conf", "deploy/nats/nats-cluster.conf"])
    func natsConfigsParse(file: String) async throws {
        let result = try await Repository.run([try NATSTestServer.binary(), "-c", file, "-t"], environment: Self.passwords)
        #expect(result.status == 0, "\(file): \(result.error)")
    }

    @Test func eachServiceCredentialReachesOnlyItsSubjects() async throws {
        // The deployed permissions, on a test server (its own port and store).
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("muster-perm-\(UUID().uuidString).conf")
        // (nats-server resolves include paths against the config's folder, so copy rather than include.)
        try Data(contentsOf: URL(fileURLWithPath: Repository.path("deploy/nats/permissions.conf"))).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let server = try await NATSTestServer.start(extraArguments: ["-c", config.path], environment: Self.passwords)
        defer { server.stop() }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        func log(_ user: String, _ password: String) async throws -> (NATSConnection, EventLog) {
            let url = server.url.replacingOccurrences(of: "nats://", with: "nats://\(user):\(password)@")
            let connection = try await NATSConnection.connect(NATSConfiguration(url: url, name: user), logger: logger)
            let log = EventLog(jetStream: JetStream(connection, apiTimeout: .seconds(2)), catalog: apps.catalog, source: user)
            return (connection, log)
        }
        let (ingestConnection, ingest) = try await log("ingest", "ingest-pw")
        try await ingest.bootstrap()
        let appended = try await ingest.append(issuedKey(scopes: ["read:mobile"]).event)
        #expect(appended.sequence == 1)

        // ingest keeps the keys that seal people's data; no other service may read them.
        let personKeys = try await KeyValue.open(ingest.jetStream, bucket: PersonalDataVault.bucketName, erasable: true)
        try await personKeys.create("p1", Data(repeating: 1, count: 32))
        #expect(try await personKeys.get("p1")?.value.count == 32)
        try await personKeys.erase("p1")
        #expect(try await personKeys.get("p1") == nil)

        let (queryConnection, query) = try await log("query", "query-pw")
        try await query.bootstrap() // allowed to check the streams
        await #expect(throws: (any Error).self, "query must not read people's keys") {
            _ = try await KeyValue.open(query.jetStream, bucket: PersonalDataVault.bucketName, erasable: true).get("p1")
        }
        await #expect(throws: (any Error).self, "query must not append events") {
            _ = try await query.append(issuedKey(scopes: ["read:mobile"]).event)
        }
        #expect(try await query.jetStream.streamInfo("EVENTS").state.messages == 1)

        // geocode may add the geocoded enrichment only; moderation its checks and decisions only.
        let action = OPLIDs.random("act_")
        let (geocodeConnection, geocode) = try await log("geocode", "geocode-pw")
        _ = try await geocode.append(ActionGeocoded(actionId: action, latitude: 44, longitude: -103, displayName: nil, confidence: 0.8, source: "zip"))
        await #expect(throws: (any Error).self, "geocode must not approve") {
            _ = try await geocode.append(ActionRejected(actionId: action, moderator: "m", reason: "r"))
        }
        let (moderationConnection, moderation) = try await log("moderation", "moderation-pw")
        _ = try await moderation.append(ActionRejected(actionId: action, moderator: "m", reason: "r"))
        await #expect(throws: (any Error).self, "moderation must not issue keys") {
            _ = try await moderation.append(issuedKey(scopes: ["read:mobile"]).event)
        }
        #expect(try await query.jetStream.streamInfo("EVENTS").state.messages == 3)
        // collector may append analytics and crash events only; notifier alert events only.
        let alert = AlertResolved(alertId: "al_0123456789abcdef", rule: .errorRate, app: "offleash", target: "GET /x",
                                  resolvedAt: "2026-11-21T14:00:00Z", observed: 0, count: 0, message: "calm")
        let (collectorConnection, collector) = try await log("collector", "collector-pw")
        _ = try await collector.append(alert)
        await #expect(throws: (any Error).self, "collector must not touch OPL") {
            _ = try await collector.append(ActionRejected(actionId: action, moderator: "m", reason: "r"))
        }
        let (notifierConnection, notifier) = try await log("notifier", "notifier-pw")
        _ = try await notifier.append(alert)
        await #expect(throws: (any Error).self, "notifier must not append app events") {
            _ = try await notifier.append(ActionRejected(actionId: action, moderator: "m", reason: "r"))
        }
        #expect(try await query.jetStream.streamInfo("EVENTS").state.messages == 5)
        await collectorConnection.close()
        await notifierConnection.close()
        await geocodeConnection.close()
        await moderationConnection.close()

        await #expect(throws: NATSError.self, "a wrong password is refused") { _ = try await log("ingest", "nope") }
        await ingestConnection.close()
        await queryConnection.close()
    }
}
