import MusterAppTesting
import MusterTesting
import Testing

/// `Expect: 100-continue` (curl sends it with every body over 1 MB, .NET's HttpClient with every
/// body): the server answers `100 Continue` as the head arrives, so the client does not sit out
/// its wait (a second, in curl) before sending the body.
@Suite("Expect: 100-continue")
struct ExpectContinueTests {
    @Test func aRequestThatExpectsContinueGetsItBeforeItSendsItsBody() async throws {
        try await apps.withLiveServer(["query"]) { _, port in
            let socket = try RawSocket(port: port)
            try socket.send("POST /api/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                            + "Expect: 100-continue\r\n\r\n")
            let interim = await offThread { socket.receive(wait: .seconds(5)) }
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n\r\n"), "\(interim)")
            try socket.send("{}")
            // A route that has no use for the body (here: none matches) may answer without waiting
            // for it (RFC 9110 §10.1.1), so the final answer can arrive with the interim one.
            var answer = String(interim.dropFirst("HTTP/1.1 100 Continue\r\n\r\n".count))
            if answer.isEmpty { answer = await offThread { socket.receive(wait: .seconds(5)) } }
            #expect(answer.hasPrefix("HTTP/1.1 404"), "the final answer: \(answer.prefix(200))")

            // Without the expectation, no interim answer: the final answer is the first thing back.
            let plain = try RawSocket(port: port)
            try plain.send("POST /api/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            let first = await offThread { plain.receive(wait: .seconds(5)) }
            #expect(first.hasPrefix("HTTP/1.1 404"), "\(first.prefix(200))")
        }
    }
}
