/// The bookkeeping of a continuous pull consumer, with no I/O, so it is tested on its own.
///
/// It keeps up to two pull requests' worth of messages asked for: when what is still owed falls
/// to half a batch it asks for another batch, so the next batch is on its way while this one is
/// handled. Server status messages settle what a request will no longer deliver.
struct PullState: Sendable, Equatable {
    enum Action: Sendable, Equatable {
        case none
        /// Send a pull request for this many messages.
        case pull(Int)
        /// The consumer is gone or unusable; stop with this reason.
        case fail(String)
    }

    let batch: Int
    /// Messages asked for and not yet delivered or released by a status.
    private(set) var owed = 0

    init(batch: Int) {
        precondition(batch > 0)
        self.batch = batch
    }

    private var threshold: Int { batch / 2 }

    private mutating func topUp() -> Action {
        guard owed <= threshold else { return .none }
        owed += batch
        return .pull(batch)
    }

    mutating func start() -> Action { topUp() }

    mutating func messageReceived() -> Action {
        owed = max(0, owed - 1)
        return topUp()
    }

    /// A status message on the pull inbox. `pendingMessages` is `Nats-Pending-Messages`, the part of
    /// a request that will never be delivered.
    mutating func status(_ code: Int, description: String, pendingMessages: Int?) -> Action {
        switch code {
        case 100: return .none // idle heartbeat
        case 404, 408:
            owed = max(0, owed - (pendingMessages ?? batch))
            return topUp()
        case 409:
            let text = description.lowercased()
            if text.contains("consumer deleted") || text.contains("push based") {
                return .fail("consumer unusable: \(description)")
            }
            // Leadership change, max waiting exceeded, batch completed, server shutdown: ask again.
            owed = max(0, owed - (pendingMessages ?? batch))
            return topUp()
        default:
            return .fail("unexpected status \(code) \(description)")
        }
    }

    /// Nothing arrived for longer than a request lives (say across a reconnect): start over.
    mutating func idle() -> Action {
        owed = 0
        return topUp()
    }
}
