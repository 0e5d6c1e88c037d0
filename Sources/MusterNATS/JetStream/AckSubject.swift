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
        let tokens = ackSubject.split(separator: ".", omittingEmptySubsequences: false)
        guard tokens.count >= 9, tokens[0] == "$JS", tokens[1] == "ACK" else { return nil }
        let base: Int
        switch tokens.count {
        case 9: base = 2
        case 11, 12: base = 4 // $JS.ACK.<domain>.<account>.<stream>…[.<token>]
        default: return nil
        }
        guard let delivered = UInt64(tokens[base + 2]), let sseq = UInt64(tokens[base + 3]),
              let cseq = UInt64(tokens[base + 4]), let time = Int64(tokens[base + 5]),
              let pending = UInt64(tokens[base + 6]) else { return nil }
        stream = String(tokens[base])
        consumer = String(tokens[base + 1])
        deliveryCount = delivered
        streamSequence = sseq
        consumerSequence = cseq
        timestampNanos = time
        self.pending = pending
    }
}
