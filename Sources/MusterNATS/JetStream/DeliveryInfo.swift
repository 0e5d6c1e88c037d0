/// What JetStream says about a delivered message, read from its reply (ack) subject:
/// `$JS.ACK.<stream>.<consumer>.<delivered>.<streamSeq>.<consumerSeq>.<nanos>.<pending>` or the
/// newer form with domain and account hash in front and a random token at the end.
public struct DeliveryInfo: Sendable, Equatable {
    public var stream: String
    public var consumer: String
    public var deliveryCount: UInt64
    public var streamSequence: UInt64
    public var consumerSequence: UInt64
    public var timestampNanos: Int64
    /// Messages still waiting for this consumer after this one: its lag.
    public var pending: UInt64

    public init?(ackSubject: String) {
        // Hot path (every delivered message): split the UTF-8 bytes once, no substrings.
        let utf8 = ackSubject.utf8
        var tokens: [Range<String.UTF8View.Index>] = []
        tokens.reserveCapacity(12)
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: ".") {
                tokens.append(start..<index)
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        tokens.append(start..<utf8.endIndex)
        func number(_ i: Int) -> UInt64? {
            var value: UInt64 = 0
            let range = tokens[i]
            guard !range.isEmpty else { return nil }
            for byte in utf8[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value &* 10 &+ UInt64(byte - 48)
            }
            return value
        }
        guard tokens.count >= 9, utf8[tokens[0]].elementsEqual("$JS".utf8), utf8[tokens[1]].elementsEqual("ACK".utf8) else { return nil }
        let base: Int
        switch tokens.count {
        case 9: base = 2
        case 11, 12: base = 4 // $JS.ACK.<domain>.<account>.<stream>…[.<token>]
        default: return nil
        }
        guard let delivered = number(base + 2), let sseq = number(base + 3), let cseq = number(base + 4),
              let time = number(base + 5), let pending = number(base + 6) else { return nil }
        // Split at ASCII dots, the tokens are whole UTF-8; decoding never traps either way.
        stream = String(decoding: utf8[tokens[base]], as: UTF8.self)
        consumer = String(decoding: utf8[tokens[base + 1]], as: UTF8.self)
        deliveryCount = delivered
        streamSequence = sseq
        consumerSequence = cseq
        timestampNanos = Int64(truncatingIfNeeded: time)
        self.pending = pending
    }
}
