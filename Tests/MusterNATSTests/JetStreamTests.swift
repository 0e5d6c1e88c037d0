import Foundation
import MusterNATS
import MusterTesting
import Testing

@Suite("JetStream over the JSON API")
struct JetStreamTests {
    func makeStream(_ js: JetStream) async throws {
        var config = StreamConfig(name: "T", subjects: ["t.>"])
        config.duplicateWindow = 60_000_000_000
        try await js.ensureStream(config)
        // Idempotent: the same config again is fine, a changed one is an update.
        try await js.ensureStream(config)
        config.maxMsgsPerSubject = 100_000
        let info = try await js.ensureStream(config)
        #expect(info.config.maxMsgsPerSubject == 100_000)
    }

    @Test func publishIsIdempotentOnMessageID() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            try await makeStream(js)
            let first = try await js.publish(OutgoingMessage(subject: "t.a", payload: Data("1".utf8), options: .init(messageID: "m1")))
            let again = try await js.publish(OutgoingMessage(subject: "t.a", payload: Data("1".utf8), options: .init(messageID: "m1")))
            #expect(first.seq == 1 && !first.duplicate)
            #expect(again.seq == 1 && again.duplicate)
            #expect(try await js.streamInfo("T").state.messages == 1)
        }
    }

    @Test func expectedLastSubjectSequenceWithWildcard() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            try await makeStream(js)
            _ = try await js.publish(OutgoingMessage(subject: "t.agg1.created", payload: Data()))
            _ = try await js.publish(OutgoingMessage(subject: "t.agg2.created", payload: Data()))
            // agg1's last event is seq 1, whatever its event name.
            let ok = try await js.publish(OutgoingMessage(subject: "t.agg1.renamed", payload: Data(),
                options: .init(expectedLastSubjectSequence: 1, expectedLastSubjectFilter: "t.agg1.>")))
            #expect(ok.seq == 3)
            let error = await #expect(throws: NATSError.self) {
                _ = try await js.publish(OutgoingMessage(subject: "t.agg1.renamed", payload: Data(),
                    options: .init(expectedLastSubjectSequence: 1, expectedLastSubjectFilter: "t.agg1.>")))
            }
            #expect(error?.code == .wrongLastSequence)
        }
    }

    /// A batch has one router entry, yet each message gets its own answer, in order: stored, a
    /// duplicate, a conflict, no stream for its subject.
    @Test func publishAllAnswersEachMessage() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            try await makeStream(js)
            let messages = [
                OutgoingMessage(subject: "t.a.created", payload: Data("1".utf8), options: .init(messageID: "m1")),
                OutgoingMessage(subject: "t.a.created", payload: Data("1".utf8), options: .init(messageID: "m1")),
                OutgoingMessage(subject: "t.b.created", payload: Data(),
                                options: .init(expectedLastSubjectSequence: 9, expectedLastSubjectFilter: "t.b.>")),
                OutgoingMessage(subject: "nowhere.at.all", payload: Data()),
                OutgoingMessage(subject: "t.c.created", payload: Data()),
            ]
            for maxInFlight in [1, 2, 4096] {
                let results = try await js.publishAll(messages, maxInFlight: maxInFlight)
                #expect(results.count == messages.count)
                #expect(try results[0].get().duplicate == (maxInFlight != 1))
                #expect(try results[1].get().duplicate)
                #expect(try results[0].get().seq == results[1].get().seq)
                #expect(results[2].failure?.code == .wrongLastSequence)
                #expect(results[3].failure?.code == .noResponders)
                #expect(try results[4].get().duplicate == false)
            }
            #expect(try await js.publishAll([]).isEmpty)
        }
    }

    @Test func pipelinedPublishThenPullConsumeWithAcks() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            try await makeStream(js)
            let count = 5_000
            let messages = (0..<count).map { OutgoingMessage(subject: "t.bulk", payload: Data("\($0)".utf8)) }
            let results = try await js.publishAll(messages, maxInFlight: 128)
            let seqs = try results.map { try $0.get().seq }
            #expect(seqs == Array(1...UInt64(count)))

            var config = ConsumerConfig(durableName: "reader")
            config.ackPolicy = .explicit
            config.filterSubject = "t.bulk"
            try await js.ensureConsumer(stream: "T", config)
            var received = 0
            for try await message in PullConsumer(js, stream: "T", consumer: "reader", batch: 100, expires: .seconds(1)) {
                #expect(message.delivery.streamSequence == UInt64(received + 1))
                #expect(message.delivery.pending == UInt64(count - received - 1))
                if received == count - 1 { try await message.ackSync() } else { try message.ack() }
                received += 1
                if received == count { break }
            }
            let info = try await js.consumerInfo(stream: "T", name: "reader")
            #expect(info.numPending == 0)
            #expect(info.ackFloor.streamSeq == UInt64(count))
        }
    }

    /// A caught-up consumer keeps one long request open (`idleAfter` shorter than `expires`) and
    /// still hands out `.idle` often; a request lost with its server is asked again at the first
    /// idle moment after the reconnect, not when it would have expired a minute later.
    @Test func aLongRequestLostWithItsServerIsAskedAgainAfterTheReconnect() async throws {
        try await withNATS { nats, server in
            let js = JetStream(nats)
            try await makeStream(js)
            try await js.ensureConsumer(stream: "T", ConsumerConfig(durableName: "long"))
            var iterator = PullConsumer(js, stream: "T", consumer: "long", batch: 10, expires: .seconds(60),
                                        idleAfter: .milliseconds(200)).makeAsyncIterator()
            let quiet = ContinuousClock.now
            guard case .idle? = try await iterator.nextEvent() else { Issue.record("an event with nothing in the stream"); return }
            #expect(ContinuousClock.now - quiet < .seconds(5), "idle after idleAfter, not after the request's minute")
            _ = try await js.publish(OutgoingMessage(subject: "t.long", payload: Data("a".utf8)))
            #expect(try await Self.next(&iterator, within: .seconds(10)) == "a")

            // Killed: no "server shutdown" status tells the request it is gone.
            try await server.crash()
            try await server.restart()
            try await eventually("reconnected", timeout: .seconds(20)) { nats.reconnectCount > 0 && nats.isConnected }
            try await eventually("the stream takes writes again", timeout: .seconds(20)) {
                (try? await js.publish(OutgoingMessage(subject: "t.long", payload: Data("b".utf8)))) != nil
            }
            let restarted = ContinuousClock.now
            // "a" may come again: its ack can die with the killed server (at least once, as promised).
            var next = try await Self.next(&iterator, within: .seconds(20))
            if next == "a" { next = try await Self.next(&iterator, within: .seconds(20)) }
            #expect(next == "b")
            #expect(ContinuousClock.now - restarted < .seconds(10), "asked again after the reconnect, not at the minute's end")
        }
    }

    /// The next delivered message's body, skipping idle moments, for at most `limit`.
    static func next(_ iterator: inout PullConsumer.AsyncIterator, within limit: Duration) async throws -> String? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if case .message(let message)? = try await iterator.nextEvent() {
                try message.ack()
                return String(decoding: message.payload, as: UTF8.self)
            }
        }
        return nil
    }

    @Test func nakRedeliversAndTermDoesNot() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            try await makeStream(js)
            _ = try await js.publish(OutgoingMessage(subject: "t.x", payload: Data("a".utf8)))
            _ = try await js.publish(OutgoingMessage(subject: "t.x", payload: Data("b".utf8)))
            try await js.ensureConsumer(stream: "T", ConsumerConfig(durableName: "n"))
            var deliveries: [(String, UInt64)] = []
            for try await message in PullConsumer(js, stream: "T", consumer: "n", batch: 10, expires: .seconds(1)) {
                let body = String(decoding: message.payload, as: UTF8.self)
                deliveries.append((body, message.delivery.deliveryCount))
                if body == "a" && message.delivery.deliveryCount == 1 { try message.nak() }
                else if body == "b" { try message.term() }
                else { try message.ack() }
                if deliveries.count == 3 { break }
            }
            #expect(deliveries.map(\.0) == ["a", "b", "a"])
            #expect(deliveries.last?.1 == 2)
        }
    }

    @Test func keyValueGetPut() async throws {
        try await withNATS { nats, _ in
            let kv = try await KeyValue.open(JetStream(nats), bucket: "settings")
            #expect(try await kv.get("missing") == nil)
            let r1 = try await kv.put("colour", Data("blue".utf8))
            let r2 = try await kv.put("colour", Data("green".utf8))
            #expect(r2 > r1)
            #expect(try await kv.get("colour")?.value == Data("green".utf8))
            try await kv.delete("colour")
            #expect(try await kv.get("colour") == nil)
            await #expect(throws: NATSError.self) { try await kv.put("bad key", Data()) }
        }
    }

    /// `read` (direct get) answers what `get` (the JSON API) answers: the value as stored, with
    /// its revision and headers; nothing for a key never written or deleted.
    @Test func keyValueReadByDirectGetAgreesWithGet() async throws {
        try await withNATS { nats, _ in
            let kv = try await KeyValue.open(JetStream(nats), bucket: "keys")
            #expect(try await kv.read("missing") == nil)
            let bytes = Data((0..<32).map { UInt8($0) } + [0, 13, 10, 255])
            try await kv.put("person", bytes)
            let read = try await kv.read("person")
            #expect(read == (try await kv.get("person")))
            #expect(read?.value == bytes)
            try await kv.delete("person")
            #expect(try await kv.read("person") == nil)
        }
    }

    /// A stream that does not allow direct gets (one made before its bucket asked for them)
    /// answers through its leader instead: the same message, and nil for a subject without one.
    @Test func directGetFallsBackToTheAPIWhereNotAllowed() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            try await makeStream(js)
            _ = try await js.publish(OutgoingMessage(subject: "t.one", payload: Data("first".utf8)))
            let second = try await js.publish(OutgoingMessage(subject: "t.one", payload: Data("second".utf8)))
            let stored = try await js.directGet(stream: "T", lastBySubject: "t.one")
            #expect(stored?.payload == Data("second".utf8))
            #expect(stored?.sequence == second.seq)
            #expect(try await js.directGet(stream: "T", lastBySubject: "t.none") == nil)
        }
    }
}
