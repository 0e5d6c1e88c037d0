import Logging

/// A loop that retries after errors (a fold or processor while NATS is away) logs the first
/// failure of a run and the run's end, not every retry: a long outage is two lines, not one a second.
struct Stall {
    let what: String
    private var since: ContinuousClock.Instant?
    private var retries = 0

    init(_ what: String) { self.what = what }

    mutating func failed(_ error: any Error, logger: Logger) {
        retries += 1
        guard since == nil else { return }
        since = .now
        logger.error("\(what) stalled; retrying every second, quietly, until it can go on", metadata: ["error": "\(error)"])
    }

    /// The loop got through again (its consumer is in place): ends a run of failures, if any.
    mutating func resumed(logger: Logger) {
        guard let since else { return }
        logger.notice("\(what) resumed after \(LogAvailability.seconds(.now - since)) and \(retries) retries")
        self.since = nil
        retries = 0
    }
}
