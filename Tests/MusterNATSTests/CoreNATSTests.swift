import Foundation
import MusterNATS
import MusterTesting
import Testing

@Suite("NATS core over libnats")
struct CoreNATSTests {
    @Test func publishAndSubscribeWithHeaders() async throws {
        try await withNATS { nats, _ in
            let subscription = try await nats.subscribe("greet.>")
            var headers = NATSHeaders()
            headers["X-Trace"] = "abc"
            headers.add("X-Multi", "1")
            headers.add("X-Multi", "2")
            try nats.publish("greet.world", headers: headers, payload: Data("hello".utf8))
            let message = try #require(await subscription.next(timeout: .seconds(5)))
            #expect(message.subject == "greet.world")
            #expect(String(decoding: message.payload, as: UTF8.self) == "hello")
            #expect(message.headers["X-Trace"] == "abc")
            #expect(message.headers.filter { $0.name == "X-Multi" }.map(\.value) == ["1", "2"])
        }
    }

    @Test func requestReply() async throws {
        try await withNATS { nats, _ in
            let service = try await nats.subscribe("echo")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await request in service {
                        try nats.publish(request.replyTo!, payload: Data("re: ".utf8) + request.payload)
                    }
                }
                for i in 0..<20 {
                    let reply = try await nats.request("echo", payload: Data("\(i)".utf8))
                    #expect(String(decoding: reply.payload, as: UTF8.self) == "re: \(i)")
                }
                service.unsubscribe()
                try await group.waitForAll()
            }
        }
    }

    @Test func requestWithoutRespondersFailsFast() async throws {
        try await withNATS { nats, _ in
            let started = ContinuousClock.now
            await #expect(throws: NATSError.self) {
                _ = try await nats.request("nobody.home", timeout: .seconds(5))
            }
            #expect(ContinuousClock.now - started < .seconds(4))
        }
    }

    @Test func requestTimesOut() async throws {
        try await withNATS { nats, _ in
            let silent = try await nats.subscribe("silent")
            let error = await #expect(throws: NATSError.self) {
                _ = try await nats.request("silent", timeout: .milliseconds(200))
            }
            #expect(error?.code == .timeout)
            silent.unsubscribe()
        }
    }

    @Test func boundedSubscriptionKeepsEveryMessageUnderBackPressure() async throws {
        try await withNATS { nats, _ in
            let subscription = try await nats.subscribe("flood", capacity: 8)
            for i in 0..<2_000 { try nats.publish("flood", payload: Data("\(i)".utf8)) }
            try await nats.flush()
            var seen = 0
            for await message in subscription {
                #expect(String(decoding: message.payload, as: UTF8.self) == "\(seen)")
                seen += 1
                if seen == 2_000 { break }
            }
            #expect(seen == 2_000)
        }
    }

    @Test func connectToNothingFailsWithClearError() async throws {
        let error = await #expect(throws: NATSError.self) {
            _ = try await NATSConnection.connect(NATSConfiguration(url: "nats://127.0.0.1:1", connectTimeout: .milliseconds(500)))
        }
        #expect(error?.description.contains("127.0.0.1:1") == true)
    }
}
