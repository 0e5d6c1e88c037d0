import Foundation
import Logging
package import MusterNATS

/// Runs `body` with a fresh nats-server and a connection to it; both are gone afterwards.
package func withNATS<T>(_ body: (NATSConnection, NATSTestServer) async throws -> T) async throws -> T {
    let server = try await NATSTestServer.start()
    defer { server.stop() }
    var logger = Logger(label: "test")
    logger.logLevel = .warning
    let connection = try await NATSConnection.connect(NATSConfiguration(url: server.url, name: "test"), logger: logger)
    do {
        let result = try await body(connection, server)
        await connection.close()
        return result
    } catch {
        await connection.close()
        throw error
    }
}
