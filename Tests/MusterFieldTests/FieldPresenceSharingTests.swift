import Logging
@testable import MusterField
import MusterNATS
import MusterRuntime
import MusterTesting
import Testing

/// Two instances of the field service, each with its own NATS connection and `Sharing`: a worker
/// with a socket open on either is seen as connected by both, and leaving is seen by both.
@Suite("Field presence across two instances")
struct FieldPresenceSharingTests {
    @Test func aSocketOnEitherInstanceIsSeenByBoth() async throws {
        try await withNATS { first, server in
            var logger = Logger(label: "test")
            logger.logLevel = .warning
            let second = try await NATSConnection.connect(NATSConfiguration(url: server.url, name: "second"), logger: logger)
            let (a, b) = (FieldPresence(), FieldPresence())
            let (sharingA, sharingB) = (Sharing(connection: first, interval: .milliseconds(50), logger: logger),
                                        Sharing(connection: second, interval: .milliseconds(50), logger: logger))
            sharingA.register(a, as: "field-presence")
            sharingB.register(b, as: "field-presence")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await sharingA.run() }
                group.addTask { try await sharingB.run() }
                // Readiness, not speed: beside the whole suite on two loaded cores the subscribe and flush once took over 10 s.
                try await eventually("both listening", timeout: .seconds(60)) { sharingA.isListening && sharingB.isListening }
                a.arrived("ana")
                try await eventually("b sees Ana", timeout: .seconds(30)) { b.isConnected("ana") }
                #expect(!b.isConnected("ben"))
                b.arrived("ben")
                b.arrived("ben") // two devices
                try await eventually("a sees Ben", timeout: .seconds(30)) { a.isConnected("ben") }
                b.left("ben")
                try await Task.sleep(for: .milliseconds(300))
                #expect(a.isConnected("ben"), "one of Ben's two sockets is still open")
                b.left("ben")
                a.left("ana")
                try await eventually("both gone everywhere", timeout: .seconds(30)) { !a.isConnected("ben") && !b.isConnected("ana") }
                // An instance that stops talking is forgotten after 15 s: its heartbeats keep a person present until then.
                a.arrived("cy")
                try await eventually("b sees Cy", timeout: .seconds(30)) { b.isConnected("cy") }
                #expect(!b.isConnected("cy", now: .now + .seconds(16)), "an instance not heard from for 15 s is forgotten")
                group.cancelAll()
            }
            await second.close()
        }
    }
}
