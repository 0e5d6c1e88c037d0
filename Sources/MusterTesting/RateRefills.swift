/// How many tokens a rate limit of one token every `every` has given back since `start`: how
/// many more requests a test may see pass after spending the whole bucket, however long a loaded
/// machine took over it (and never one more).
package func refills(since start: ContinuousClock.Instant, every: Duration = .seconds(10)) -> Int {
    Int((ContinuousClock.now - start) / every)
}

/// Sends `request` until the limit refuses it, letting pass only as many as the bucket refilled
/// since `start`; `passed` counts those, shared by the calls that spend the same bucket. The last
/// answer: refused, unless one more passed than refilled.
package func firstRefused<Answer>(since start: ContinuousClock.Instant, every: Duration = .seconds(10), passed: inout Int,
                                 refused: (Answer) -> Bool, _ request: () async throws -> Answer) async rethrows -> Answer {
    while true {
        let answer = try await request()
        if refused(answer) { return answer }
        passed += 1
        if passed > refills(since: start, every: every) { return answer }
    }
}
