import NIOPosix

extension SnapshotStore {
    /// Runs `body` (a file read, or written and synced) on NIO's blocking pool, never on a thread
    /// of the concurrency pool, and waits for it even when the caller has been cancelled
    /// (`runIfActive` would throw instead): a fold writes its last snapshot once cancelled.
    func onBlockingPool<T: Sendable>(_ body: @escaping @Sendable (SnapshotStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            NIOThreadPool.singleton.submit { [self] state in
                guard case .active = state else {
                    return continuation.resume(throwing: SnapshotError(message: "the blocking thread pool has shut down"))
                }
                continuation.resume(with: Result { try body(self) })
            }
        }
    }
}
