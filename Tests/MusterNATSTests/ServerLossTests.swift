import Foundation
import Logging
import MusterNATS
import MusterTesting
import Testing

/// What the connection does when its server goes away: waiting requests hear at once, new ones
/// wait for a reconnect within their deadline, and a drain while reconnecting closes in time.
@Suite("NATS connection losing its server")
struct ServerLossTests {
    @Test func requestsWaitingWhenTheServerGoesFailAtOnceAndLaterOnesWithinTheirDeadline() async throws {
        try await withNATS { nats, server in
            let silent = try await nats.subscribe("silent") // interest, so the request waits for a reply
            _ = silent
            try await nats.flush()
            let started = ContinuousClock.now
            async let waiting = Result(awaiting: { try await nats.request("silent", timeout: .seconds(30)) })
            try await Task.sleep(for: .milliseconds(200))
            server.halt()
            let lost = await waiting
            #expect(ContinuousClock.now - started < .seconds(10), "the request heard of the loss, not of its deadline")
            #expect((lost.failure as? NATSError)?.code == .disconnected, "\(lost)")
            try await eventually("libnats notices") { nats.status == .reconnecting }
            let asked = ContinuousClock.now
            await #expect(throws: NATSError.self) { try await nats.request("silent", timeout: .seconds(1)) }
            #expect(ContinuousClock.now - asked < .seconds(3))
        }
    }

    @Test func drainingWhileReconnectingClosesWithinTheDrainTimeout() async throws {
        let server = try await NATSTestServer.start()
        defer { server.stop() }
        var logger = Logger(label: "test")
        logger.logLevel = .error
        let nats = try await NATSConnection.connect(NATSConfiguration(url: server.url, name: "test", drainTimeout: .seconds(1)), logger: logger)
        try nats.publish("before", payload: Data("x".utf8))
        server.halt()
        try await eventually("libnats notices") { nats.status == .reconnecting }
        let asked = ContinuousClock.now
        await nats.drain()
        #expect(ContinuousClock.now - asked < .seconds(4))
        #expect(nats.status == .closed)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Result where Failure == any Error {
    init(awaiting body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
