package import Foundation

/// A piece of one process's state that the other instances of the same services must see: a rate
/// limiter's takes, sign-in failures, who has a socket open. `Sharing` asks each part for what
/// changed a few times a second and hands it what the other instances said.
package protocol SharedPart: AnyObject, Sendable {
    /// What changed here since the last call (JSON), or nil when there is nothing to say.
    func outgoing(now: ContinuousClock.Instant) -> Data?
    /// What another instance (`from`) said.
    func incoming(_ data: Data, from instance: String, now: ContinuousClock.Instant)
}
