import Foundation
@testable import MusterNATS
import Testing

@Suite("Pull consumer bookkeeping, without I/O")
struct PullStateTests {
    @Test func asksForTheNextBatchAtHalfway() {
        var state = PullState(batch: 10)
        #expect(state.start() == .pull(10))
        for _ in 0..<4 { #expect(state.messageReceived() == .none) }
        #expect(state.messageReceived() == .pull(10)) // 5 owed → top up to 15
        #expect(state.owed == 15)
    }

    @Test func requestTimeoutReleasesWhatWillNotCome() {
        var state = PullState(batch: 10)
        _ = state.start()
        _ = state.messageReceived()
        #expect(state.status(408, description: "Request Timeout", pendingMessages: 9) == .pull(10))
        #expect(state.owed == 10)
    }

    @Test func heartbeatsChangeNothingAndDeletedConsumerFails() {
        var state = PullState(batch: 4)
        _ = state.start()
        #expect(state.status(100, description: "Idle Heartbeat", pendingMessages: nil) == .none)
        if case .fail = state.status(409, description: "Consumer Deleted", pendingMessages: nil) {} else {
            Issue.record("a deleted consumer must stop the pull")
        }
    }

    @Test func idleStartsOver() {
        var state = PullState(batch: 8)
        _ = state.start()
        #expect(state.idle() == .pull(8))
        #expect(state.owed == 8)
    }

    @Test func deliveryInfoFromBothAckSubjectForms() {
        let v1 = DeliveryInfo(ackSubject: "$JS.ACK.EVENTS.proj_keys_v1.1.42.40.1700000000000000000.7")
        #expect(v1?.stream == "EVENTS" && v1?.consumer == "proj_keys_v1" && v1?.streamSequence == 42 && v1?.pending == 7)
        let v2 = DeliveryInfo(ackSubject: "$JS.ACK.hub.ACCHASH.EVENTS.c.2.9.8.1700000000000000000.0.tok")
        #expect(v2?.deliveryCount == 2 && v2?.streamSequence == 9 && v2?.consumerSequence == 8)
        #expect(DeliveryInfo(ackSubject: "_INBOX.abc") == nil)
        // Known names are shared, others read from the subject: the answer is the same.
        var subject = "$JS.ACK.EVENTS.proj_keys_v1.1.42.40.1700000000000000000.7"
        #expect(subject.withUTF8 { DeliveryInfo(ackSubject: $0, stream: "EVENTS", consumer: "proj_keys_v2") } == v1)
        #expect(subject.withUTF8 { DeliveryInfo(ackSubject: $0, stream: "EVENT", consumer: "proj_keys_v1") } == v1)
        // Malformed: a number token empty, not digits or too long, a trailing dot, the wrong prefix.
        for bad in ["$JS.ACK.EVENTS.c.1..40.1700000000000000000.7", "$JS.ACK.EVENTS.c.1.4x.40.17.7",
                    "$JS.ACK.EVENTS.c.1.42.40.17.99999999999999999999", "$JS.ACK.EVENTS.c.1.42.40.17.",
                    "$JS.NAK.EVENTS.c.1.42.40.17.7", "", "........"] {
            #expect(DeliveryInfo(ackSubject: bad) == nil, "\(bad)")
        }
    }

    @Test func replyTokensAreReadInPlace() {
        func token(_ subject: String) -> UInt64? { subject.withCString(ReplyRouter.Box.token(ofSubject:)) }
        #expect(token("_INBOX.abc.42") == 42)
        #expect(token("_INBOX.a1b2.18446744073709551") == 18_446_744_073_709_551)
        #expect(token("_INBOX.abc.") == nil)
        #expect(token("_INBOX.abc.4x") == nil)
        #expect(token("_INBOX.abc.99999999999999999999") == nil) // past 19 digits: never one of ours
        #expect(token("") == nil)
        #expect(token("_INBOX.abc.42_7") == nil) // a batch's reply
    }

    @Test func batchRepliesAreReadInPlace() {
        func address(_ subject: String) -> (UInt64?, Int?) { subject.withCString(ReplyRouter.Box.address(ofSubject:)) }
        #expect(address("_INBOX.abc.42_7") == (42, 7))
        #expect(address("_INBOX.abc.42_0") == (42, 0))
        #expect(address("_INBOX.abc.42") == (42, nil))
        for bad in ["_INBOX.abc._7", "_INBOX.abc.42_", "_INBOX.abc.4_2_7", "_INBOX.abc.42_x", "_INBOX.abc.42_99999999999999999999"] {
            #expect(address(bad) == (nil, nil), "\(bad)")
        }
    }

    @Test func pubAckFastPathMatchesDecoder() throws {
        #expect(PubAck.fastParse(Data(#"{"stream":"EVENTS","seq":12}"#.utf8)) == PubAck(stream: "EVENTS", seq: 12))
        #expect(PubAck.fastParse(Data(#"{"stream":"EVENTS","seq":3,"duplicate":true}"#.utf8)) == PubAck(stream: "EVENTS", seq: 3, duplicate: true))
        #expect(PubAck.fastParse(Data(#"{"error":{"code":400}}"#.utf8)) == nil)
        // nats-server 2.11 writes a space after the comma; a domain may come too.
        #expect(PubAck.fastParse(Data(#"{"stream":"EVENTS", "seq":11}"#.utf8)) == PubAck(stream: "EVENTS", seq: 11))
        #expect(PubAck.fastParse(Data(#"{"stream":"EVENTS", "domain":"hub", "seq":7, "duplicate":true}"#.utf8))
            == PubAck(stream: "EVENTS", seq: 7, duplicate: true))
        #expect(PubAck.fastParse(Data(#"{"stream":"EVENTS","seq":"#.utf8)) == nil)
    }
}
