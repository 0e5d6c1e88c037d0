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
                case .messages(let delivered):
                    let (messages, past) = withinBound(delivered)
                    if !messages.isEmpty { try await handle(messages) }
                    if past { return }
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
                case .messages(let delivered):
                    let (messages, past) = withinBound(delivered)
                    if past {
                        // The bound is reached: what is before it is folded, nothing after.
                        let batch = messages.isEmpty ? nil : try prepare(messages, after: handedOff)
                        _ = try await settleInFlight(&inFlight, folded)
                        if let batch {
                            inFlight = InFlight(batch: batch, commit: Self.commit(batch, from: state, tables))
                            _ = try await settleInFlight(&inFlight, folded)
                        }
                        return
                    }
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

    /// The part of a delivered batch at or before `options.through`, and whether the bound was
    /// passed (the fold then stops). A live fold has no bound: the batch as it came.
    private func withinBound(_ messages: [JetStreamMessage]) -> ([JetStreamMessage], past: Bool) {
        guard let through = options.through, let last = messages.last?.delivery.streamSequence, last >= through else {
            return (messages, false)
        }
        return (last == through ? messages : messages.filter { $0.delivery.streamSequence <= through }, true)
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
