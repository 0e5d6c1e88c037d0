/// How many copies are in flight at once, as TCP sizes its window: until the provider first says
/// to slow down it grows by one for every delivery (doubling each round, "slow start"); after
/// that by one for each window's worth of deliveries; it halves whenever the provider says to
/// slow down (429). Bounded, so memory is too. Pure.
public struct AdaptiveWindow: Sendable, Equatable {
    public private(set) var limit: Int
    public let maximum: Int
    var successes = 0
    var slowStart = true

    public init(initial: Int = 32, maximum: Int = 256) {
        self.maximum = max(1, maximum)
        limit = min(max(1, initial), self.maximum)
    }

    public mutating func succeeded() {
        if slowStart {
            limit = min(limit + 1, maximum)
            return
        }
        successes += 1
        if successes >= limit {
            successes = 0
            limit = min(limit + 1, maximum)
        }
    }

    public mutating func throttled() {
        slowStart = false
        successes = 0
        limit = max(1, limit / 2)
    }
}
