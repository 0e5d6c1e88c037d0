import Glibc

/// What JetStream says about a delivered message, read from its reply (ack) subject:
/// `$JS.ACK.<stream>.<consumer>.<delivered>.<streamSeq>.<consumerSeq>.<nanos>.<pending>` or the
/// newer form with domain and account hash in front and a random token at the end.
package struct DeliveryInfo: Sendable, Equatable {
    package var stream: String
    package var consumer: String
    package var deliveryCount: UInt64
    package var streamSequence: UInt64
    package var consumerSequence: UInt64
    package var timestampNanos: Int64
    /// Messages still waiting for this consumer after this one: its lag.
    package var pending: UInt64

    package init?(ackSubject: String) {
        var subject = ackSubject
        guard let info = subject.withUTF8({ DeliveryInfo(ackSubject: $0) }) else { return nil }
        self = info
    }

    /// Reads the subject's bytes in place (every delivered message has one): no substrings and no
    /// array of tokens. A stream or consumer name equal to `stream` or `consumer` shares that string
    /// (a pull consumer's deliveries all carry its own names), any other is copied.
    init?(ackSubject bytes: UnsafeBufferPointer<UInt8>, stream knownStream: String = "", consumer knownConsumer: String = "") {
        let dot = UInt8(ascii: ".")
        let base: Int
        switch bytes.reduce(1, { $1 == dot ? $0 + 1 : $0 }) {
        case 9: base = 2
        case 11, 12: base = 4 // $JS.ACK.<domain>.<account>.<stream>…[.<token>]
        default: return nil
        }
        func number(_ range: Range<Int>) -> UInt64? {
            guard !range.isEmpty, range.count <= 19 else { return nil }
            var value: UInt64 = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value &* 10 &+ UInt64(byte - 48)
            }
            return value
        }
        func equal(_ range: Range<Int>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
            guard range.count == name.count, let base = bytes.baseAddress, let other = name.baseAddress else { return range.count == name.count }
            return memcmp(base + range.lowerBound, other, name.count) == 0
        }
        func name(_ range: Range<Int>, _ known: String) -> String {
            var known = known
            let same = known.withUTF8 { equal(range, $0) }
            // Split at ASCII dots, the tokens are whole UTF-8; decoding never traps either way.
            return same ? known : String(decoding: bytes[range], as: UTF8.self)
        }
        var names = (stream: 0..<0, consumer: 0..<0)
        var numbers: (UInt64?, UInt64?, UInt64?, UInt64?, UInt64?)
        var token = 0
        var start = 0
        for end in bytes.indices where bytes[end] == dot || end == bytes.count - 1 {
            let range = start..<(bytes[end] == dot ? end : end + 1)
            switch token - base {
            case -base: guard StaticString("$JS").withUTF8Buffer({ equal(range, $0) }) else { return nil }
            case 1 - base: guard StaticString("ACK").withUTF8Buffer({ equal(range, $0) }) else { return nil }
            case 0: names.stream = range
            case 1: names.consumer = range
            case 2: numbers.0 = number(range)
            case 3: numbers.1 = number(range)
            case 4: numbers.2 = number(range)
            case 5: numbers.3 = number(range)
            case 6: numbers.4 = number(range)
            default: break
            }
            token += 1
            start = end + 1
        }
        guard let delivered = numbers.0, let sseq = numbers.1, let cseq = numbers.2, let time = numbers.3,
              let pending = numbers.4 else { return nil }
        stream = name(names.stream, knownStream)
        consumer = name(names.consumer, knownConsumer)
        deliveryCount = delivered
        streamSequence = sseq
        consumerSequence = cseq
        timestampNanos = Int64(truncatingIfNeeded: time)
        self.pending = pending
    }
}
