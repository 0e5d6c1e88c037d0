import Foundation
import Synchronization
import Glibc
import MusterAppTesting
import MusterRuntime
import MusterTesting
import Testing

/// Finding 4 of the hostile run: 4,200 connections from one address, each sending one byte and
/// reconnecting as soon as it is closed, kept `/health` from answering anyone (7 of 67 probes),
/// since the bound of 4,096 connections was shared by all. One address now holds at most its
/// share (a quarter by default); a client from another address is answered as usual. Runs in the
/// connection pass (`MUSTER_CONNECTION_TESTS=1`), alone.
@Suite("Connection fairness: one address cannot take every connection", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["MUSTER_CONNECTION_TESTS"] == "1", "scripts/test.sh runs these alone, afterwards"))
struct ConnectionFairnessTests {
    /// 4,200 stalled connections from 127.0.0.1, each reopened (and sent its one byte) as soon as
    /// the server closes it, on one thread, until `stop`.
    final class Flood: @unchecked Sendable {
        // Unchecked: `sockets` is touched only by the one thread `run` loops on; `stop` and the
        // counters are atomics.
        let port: Int
        var sockets: [RawSocket?]
        let stop = Atomic<Bool>(false)
        let reopened = Atomic<Int>(0)
        /// Set once `run` has closed every socket and returned.
        let finished = Atomic<Bool>(false)

        init(port: Int, count: Int) {
            self.port = port
            sockets = Array(repeating: nil, count: count)
        }

        func open(_ index: Int) {
            sockets[index] = nil
            if let socket = try? RawSocket(port: port) {
                try? socket.send("G")
                sockets[index] = socket
            }
        }

        func run() {
            // The flood stands for a client on another machine: it gets what CPU the server leaves,
            // so what is measured is the server's fairness, not a contest for the test's two cores.
            var idle = sched_param()
            pthread_setschedparam(pthread_self(), 5, &idle) // SCHED_IDLE (Linux), which Glibc's module does not name
            for index in sockets.indices { open(index) }
            var buffer = [UInt8](repeating: 0, count: 256)
            while !stop.load(ordering: .relaxed) {
                var polled = sockets.map { pollfd(fd: $0?.fd ?? -1, events: Int16(POLLIN), revents: 0) }
                let ready = poll(&polled, nfds_t(polled.count), 20)
                if ready < 0 { continue }
                for (index, entry) in polled.enumerated() {
                    if entry.fd < 0 { open(index); reopened.wrappingAdd(1, ordering: .relaxed); continue }
                    guard entry.revents != 0 else { continue }
                    // Closed (or reset) by the server: read what is left, and come back at once.
                    if recv(entry.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) <= 0 || entry.revents & Int16(POLLHUP | POLLERR) != 0 {
                        open(index)
                        reopened.wrappingAdd(1, ordering: .relaxed)
                    }
                }
            }
            sockets.removeAll()
            finished.store(true, ordering: .releasing)
        }
    }

    @Test func aReconnectingFloodFromOneAddressLeavesAnotherAddressAnswered() async throws {
        try await apps.withLiveServer(["query"]) { _, port in
            // The client was connected before the flood began, as an app already is (a connection
            // opened during the flood waits behind the flood's in the kernel's accept queue: those
            // are measured below, apart).
            var client: RawSocket? = try await offThread { () -> Result<RawSocket, any Error> in
                Result {
                    let socket = try RawSocket(port: port, from: "127.0.0.2")
                    try socket.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    _ = socket.receive(wait: .seconds(2))
                    return socket
                }
            }.get()
            let flood = Flood(port: port, count: 4200)
            let flooding = Thread { flood.run() }
            flooding.start()
            defer { flood.stop.store(true, ordering: .relaxed) }
            try await Task.sleep(for: .seconds(3)) // the flood holds its share and hammers for more

            // The client from another address asks every 50 ms on its kept-alive connection (opened
            // again if the server closes it, the opening counted in the request that needed it). And,
            // beside it, a new connection every 250 ms: none may be refused.
            var times: [Duration] = [], fresh: [Duration] = []
            var failed = 0, freshFailed = 0
            let until = ContinuousClock.now + .seconds(25) // some 400 requests: a single scheduling hiccup is not 1 %
            var tick = 0
            while ContinuousClock.now < until {
                let started = ContinuousClock.now
                let kept = client
                let (answer, socket) = await offThread { () -> (String, RawSocket?) in
                    guard let socket = kept ?? (try? RawSocket(port: port, from: "127.0.0.2")) else { return ("", nil) }
                    try? socket.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    return (socket.receive(wait: .seconds(2)), socket)
                }
                if answer.hasPrefix("HTTP/1.1 200") {
                    times.append(ContinuousClock.now - started)
                    client = socket
                } else {
                    client = nil
                    if kept == nil { failed += 1 } // a kept connection the server had closed is opened again, not a failure
                }
                tick += 1
                if tick % 5 == 0 {
                    let opened = ContinuousClock.now
                    let answer = await offThread { () -> String in
                        guard let probe = try? RawSocket(port: port, from: "127.0.0.2") else { return "" }
                        try? probe.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                        return probe.receive(wait: .seconds(2))
                    }
                    if answer.hasPrefix("HTTP/1.1 200") { fresh.append(ContinuousClock.now - opened) } else { freshFailed += 1 }
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            flood.stop.store(true, ordering: .relaxed)
            // Its sockets closed before the test ends: nothing of it outlives the test.
            try await eventually("the flood stopped") { flood.finished.load(ordering: .acquiring) }
            func p99(_ times: [Duration]) -> Duration {
                let sorted = times.sorted()
                return sorted.isEmpty ? .seconds(999) : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            }
            let requests = times.count + failed
            let fast = times.filter { $0 <= .milliseconds(100) }.count
            print("fairness: beside 4,200 reconnecting stalled connections from 127.0.0.1 (\(flood.reopened.load(ordering: .relaxed)) reopened), "
                  + "a client from 127.0.0.2: \(requests) requests, \(failed) unanswered, \(fast) within 100 ms, p99 \(p99(times)); "
                  + "\(fresh.count + freshFailed) new connections, \(freshFailed) unanswered, p99 \(p99(fresh))")
            #expect(failed == 0 && freshFailed == 0, "unanswered: \(failed) of \(requests) requests, \(freshFailed) new connections")
            #expect(Double(fast) >= 0.99 * Double(requests), "\(fast) of \(requests) answered within 100 ms (p99 \(p99(times)))")
            #expect(flood.reopened.load(ordering: .relaxed) > 1000, "the flood was refused past its share and came back")
        }
    }
}
