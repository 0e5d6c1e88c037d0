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
    /// and decodes batch N + 1 here: on two cores the two halves of the work overlap. The batch
    /// goes to the database's queue straight from here (a child task would first wait for this
    /// loop's thread). At most one batch is in flight, and its state is taken before the next one
    /// starts from it; the last batch of a backlog is taken as soon as it commits.
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
        var iterator = batches()
        var inFlight: InFlight?
        var handedOff = checkpoint
        do {
            while !Task.isCancelled {
                // A batch the server had nothing after is settled before waiting for the next one:
                // its callers (a sync waiting to answer) must not wait for somebody else's append.
                if inFlight?.batch.pending == 0, try await settleInFlight(&inFlight, folded) == .stop { return }
                switch try await iterator.nextBatch(max: options.batch) {
                case nil:
                    _ = try await settleInFlight(&inFlight, folded)
                    return
                case .idle:
                    if try await settleInFlight(&inFlight, folded) == .stop { return }
                    if try await idle() == .stop { return }
                case .messages(let messages):
                    let batch = try prepare(messages, after: handedOff)
                    if try await settleInFlight(&inFlight, folded) == .stop { return }
                    guard let batch else { continue }
                    inFlight = InFlight(batch: batch, commit: Self.commit(batch, from: state, tables))
                    handedOff = batch.sequence
                }
            }
            _ = try await settleInFlight(&inFlight, folded)
        } catch {
            // The runner reads its checkpoint back from the database after a failed pass: let
            // the transaction under way end first.
            if let inFlight { _ = try? await inFlight.commit.value() }
            throw error
        }
    }

    /// A batch handed to the database's queue.
    struct InFlight: Sendable {
        let batch: TableBatch
        let commit: PendingCommit<Folded>
    }

    /// Waits for the batch in flight and takes its result; `.stop` when the caller is done.
    private func settleInFlight(_ inFlight: inout InFlight?, _ folded: (_ count: Int, _ last: JetStreamMessage) -> Next) async throws -> Next {
        guard let current = inFlight else { return .fold }
        inFlight = nil
        let (state, rejected) = try await current.commit.value()
        try await settle(current.batch, folded: state, rejected: rejected)
        guard let last = current.batch.messages.last else { return .fold }
        return folded(current.batch.messages.count, last)
    }
}
