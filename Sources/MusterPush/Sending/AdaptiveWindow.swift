/// How many copies are in flight at once, as TCP sizes its window: until the provider first says
/// to slow down it grows by one for every delivery (doubling each round, "slow start"); after
/// that by one for each window's worth of deliveries; it halves whenever the provider says to
/// slow down (429). Bounded, so memory is too. Pure.
package struct AdaptiveWindow: Sendable, Equatable {
    package private(set) var limit: Int
    package let maximum: Int
    var successes = 0
    var slowStart = true

    package init(initial: Int = 32, maximum: Int = 256) {
        self.maximum = max(1, maximum)
        limit = min(max(1, initial), self.maximum)
    }

    package mutating func succeeded() {
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

    package mutating func throttled() {
        slowStart = false
        successes = 0
        limit = max(1, limit / 2)
    }
}
