import MusterNATS

extension ProjectionRunner {
    enum Next {
        case fold
        case stop
    }

    /// Reads this runner's consumer and folds what it delivers until the stream ends, the task is
    /// cancelled, or `idle` (nothing more for now) or `folded` (after each batch) says stop.
    ///
    /// A fold that keeps tables commits batch N on the database's own thread while it waits for
    /// and decodes batch N + 1 here: on two cores the two halves of the work overlap. At most one
    /// batch is in flight, and its state is taken before the next one starts from it; the last
    /// batch of a backlog is taken as soon as it commits.
    func foldBatches(idle: () async throws -> Next, folded: (_ count: Int, _ last: JetStreamMessage) -> Next) async throws {
        guard let tables = P.tables else {
            var iterator = batches()
            while !Task.isCancelled {
                switch try await iterator.nextBatch(max: options.batch) {
                case nil:
                    return
                case .idle:
                    if try await idle() == .stop { return }
                case .messages(let messages):
                    try await handle(messages)
                    if let last = messages.last, folded(messages.count, last) == .stop { return }
                }
            }
            return
        }
        try await withThrowingTaskGroup(of: (TableBatch, P.State, [UInt64: String]).self) { group in
            var iterator = batches()
            var inFlight: TableBatch?
            var handedOff = checkpoint
            /// Waits for the batch in flight and takes its result; `.stop` when the caller is done.
            func settleInFlight() async throws -> Next {
                guard inFlight != nil, let (batch, state, rejected) = try await group.next() else { return .fold }
                inFlight = nil
                try await settle(batch, folded: state, rejected: rejected)
                guard let last = batch.messages.last else { return .fold }
                return folded(batch.messages.count, last)
            }
            while !Task.isCancelled {
                // A batch the server had nothing after is settled before waiting for the next one:
                // its callers (a sync waiting to answer) must not wait for somebody else's append.
                if inFlight?.pending == 0, try await settleInFlight() == .stop { return }
                switch try await iterator.nextBatch(max: options.batch) {
                case nil:
                    _ = try await settleInFlight()
                    return
                case .idle:
                    if try await settleInFlight() == .stop { return }
                    if try await idle() == .stop { return }
                case .messages(let messages):
                    let batch = try prepare(messages, after: handedOff)
                    if try await settleInFlight() == .stop { return }
                    guard let batch else { continue }
                    let start = state
                    group.addTask {
                        let (state, rejected) = try await Self.commit(batch, from: start, tables)
                        return (batch, state, rejected)
                    }
                    inFlight = batch
                    handedOff = batch.sequence
                    // On NIO's executor the child task is queued behind this loop on the same
                    // thread; let it reach the database's queue before decoding the next batch.
                    await Task.yield()
                }
            }
            _ = try await settleInFlight()
        }
    }
}
