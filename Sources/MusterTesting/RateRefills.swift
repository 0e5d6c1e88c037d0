/// How many tokens a rate limit of one token every `every` has given back since `start`: how
/// many more requests a test may see pass after spending the whole bucket, however long a loaded
/// machine took over it (and never one more).
public func refills(since start: ContinuousClock.Instant, every: Duration = .seconds(10)) -> Int {
    Int((ContinuousClock.now - start) / every)
}
