import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterRuntime
import MusterTesting
import Testing

/// Slow and stalled clients on real sockets: each is closed when its time runs out, the number
/// of connections is bounded, and a normal client is served all along.
/// 500 sockets and the tests beside them slow each other (beside the whole suite on two cores the
/// server took seconds to accept), so these run with the connection gate's, alone, afterwards.
@Suite("Slow clients", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["MUSTER_CONNECTION_TESTS"] == "1", "scripts/test.sh runs these alone, afterwards"))
struct SlowClientTests {
    static let slowCount = Int(ProcessInfo.processInfo.environment["SLOW_COUNT"] ?? "500") ?? 500
    static func limits(max: Int = 1000, head: Duration = .seconds(1)) -> (inout MusterConfiguration) -> Void {
        { configuration in
            configuration.connectionLimits.headTimeout = head
            configuration.connectionLimits.bodyTimeout = .seconds(1)
            configuration.connectionLimits.idleTimeout = .seconds(1)
            configuration.connectionLimits.maxConnections = max
            configuration.connectionLimits.maxPerAddress = max // the slow clients stand for many clients here
        }
    }

    @Test func fiveHundredSlowConnectionsAreClosedAndANormalClientIsServed() async throws {
        // The first head may take 8 s here, so the 500 are still held while the normal client is
        // served (a debug build sets up a connection in a few milliseconds: 500 take a while).
        try await apps.withLiveServer(["query"], configure: Self.limits(head: .seconds(8))) { _, port in
            // 500 clients that never finish their request line.
            var slow: [RawSocket] = []
            var opened: [ContinuousClock.Instant] = []
            for _ in 0..<Self.slowCount {
                let socket = try await offThread { Result { try RawSocket(port: port) } }.get()
                try socket.send("GET /hea")
                slow.append(socket)
                opened.append(.now)
            }
            let trickle = try RawSocket(port: port) // headers, then a body that never arrives whole
            try trickle.send("POST /api/mobile/submit-strike HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"employer\"")
            let idle = try RawSocket(port: port) // one request, then nothing
            try idle.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")

            // Served while they hang on.
            let started = ContinuousClock.now
            let normal = try RawSocket(port: port)
            try normal.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await offThread { normal.receive(wait: .seconds(3)) }.hasPrefix("HTTP/1.1 200"))
            #expect(ContinuousClock.now - started < .seconds(3))
            // Those younger than 4 s are all still held (older ones may have used up their 8 s
            // while the rest were connecting, more so on a loaded machine). With 4 s of head and 2 s
            // of youth, a fresh clone's run found none young: beside the connection-gate tests the
            // normal client's answer took over 2 s to come.
            let checked = ContinuousClock.now
            let young = zip(slow, opened).filter { checked - $0.1 < .seconds(4) }.map(\.0)
            // (A burst of 500 connects loses a few, seen both as resets from the kernel's full
            // listen backlog and as early closes that are not the guard's; the rest are held. With
            // the whole suite running beside it on two cores the loss reached 9 %, so the bar is
            // 90 %: a guard closing young connections early would close far more.)
            let held = await offThread { [young] in young.filter { $0.state(wait: .milliseconds(1)) == .open }.count }
            // (How many are young depends on how fast the 500 were opened: 96 beside the whole suite once.)
            #expect(young.count >= 50, "the normal client was served while \(young.count) slow connections were young")
            #expect(held >= young.count * 90 / 100, "\(held) of \(young.count) young slow connections were still held")

            // Every one of them is closed by the server within its limit: 8 s from when the server
            // took it, which on two loaded cores can lag the client's connect by seconds (a fixed
            // wait of the limit found 2 of 500 still open in a fresh clone's run, 3 s of grace found 3 in
            // CI beside the whole suite); 8 s of grace, polled, so a quiet machine waits 8 s.
            try await Task.sleep(for: .seconds(8))
            let stillOpen = { await offThread { [slow] in slow.filter { !$0.isClosedByPeer() }.count } }
            try? await eventually("every slow connection closed", timeout: .seconds(8)) { await stillOpen() == 0 }
            let open = await stillOpen()
            #expect(open == 0, "\(open) of \(slow.count) slow connections still open 16 s after the last was opened")
            #expect(await offThread { trickle.isClosedByPeer() })
            #expect(await offThread { idle.isClosedByPeer() }, "the idle keep-alive connection is closed after its answer")
            let fresh = try RawSocket(port: port)
            try fresh.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await offThread { fresh.receive() }.hasPrefix("HTTP/1.1 200"))
        }
    }
}
