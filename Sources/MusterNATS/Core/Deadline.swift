/// Runs `body`, failing with a timeout `NATSError` if it has not finished within `limit`.
/// `body` is cancelled then, and the call returns when it ends: bodies that ignore cancellation
/// (a barrier of the publish queue, a call on the blocking pool) must be bounded by something of
/// their own, as those are by libnats's write deadline and their timeouts.
func withDeadline<T: Sendable>(_ limit: Duration, _ what: String,
                               _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw NATSError(.timeout, "\(what): not done within \(limit)")
        }
        return value
    }
}
