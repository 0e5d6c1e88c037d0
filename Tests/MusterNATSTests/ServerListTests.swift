import Foundation
import Logging
import MusterNATS
import MusterTesting
import Testing

/// `MUSTER_NATS_URL` as a cluster deployment gives it: a list of servers, each with credentials.
@Suite("NATS server lists and secrets")
struct ServerListTests {
    var quiet: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// The first server is down: the connection takes the next one, with that URL's credentials.
    @Test func connectsWhileAnyServerOfTheListIsUp() async throws {
        let server = try await NATSTestServer.start(extraArguments: ["--user", "ingest", "--pass", "s3cret-pass"])
        defer { server.stop() }
        let authed = server.url.replacingOccurrences(of: "nats://", with: "nats://ingest:s3cret-pass@")
        let list = "nats://ingest:s3cret-pass@127.0.0.1:1, \(authed)"
        let connection = try await NATSConnection.connect(NATSConfiguration(url: list, name: "list-test", connectTimeout: .seconds(2)),
                                                          logger: quiet)
        #expect(connection.isConnected)
        try connection.publish("ping")
        try await connection.flush()
        await connection.close()
    }

    /// A failure names the servers but never their passwords.
    @Test func errorsAndLogsNeverShowAPassword() async throws {
        let configuration = NATSConfiguration(url: "nats://ingest:s3cret-pass@127.0.0.1:1,nats://tok3n@127.0.0.1:2", connectTimeout: .seconds(1))
        #expect(configuration.redactedURL == "nats://ingest:***@127.0.0.1:1,nats://***@127.0.0.1:2")
        await #expect {
            _ = try await NATSConnection.connect(configuration, logger: quiet)
        } throws: { error in
            let text = "\(error)"
            return text.contains("127.0.0.1:1") && !text.contains("s3cret") && !text.contains("tok3n")
        }
    }
}
