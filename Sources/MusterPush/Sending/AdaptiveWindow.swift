/// How many copies are in flight at once: grows by one for each window's worth of deliveries
/// that went through, halves when the provider says to slow down (additive increase,
/// multiplicative decrease, as TCP does). Bounded, so memory is too. Pure.
public struct AdaptiveWindow: Sendable, Equatable {
    public private(set) var limit: Int
    public let maximum: Int
    var successes = 0

    public init(initial: Int = 32, maximum: Int = 256) {
        self.maximum = max(1, maximum)
        limit = min(max(1, initial), self.maximum)
    }

    public mutating func succeeded() {
        successes += 1
        if successes >= limit {
            successes = 0
            limit = min(limit + 1, maximum)
        }
    }

    public mutating func throttled() {
        successes = 0
        limit = max(1, limit / 2)
    }
}
