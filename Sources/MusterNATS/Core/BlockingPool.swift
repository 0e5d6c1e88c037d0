import NIOPosix

/// The threads on which the NATS layer runs libnats calls that block (connect, flush, drain).
/// Owned by one connection and shut down with it, so Swift's cooperative pool never blocks.
struct BlockingPool: Sendable {
    let threads: NIOThreadPool

    init(threads count: Int = 2) {
        threads = NIOThreadPool(numberOfThreads: count)
        threads.start()
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await threads.runIfActive(body)
    }

    /// Runs `body` on the pool without waiting for it; at once on the caller's thread if the
    /// pool has shut down (the connection is closed then, and nothing in libnats waits).
    func submit(_ body: @escaping @Sendable () -> Void) {
        threads.submit { _ in body() }
    }

    func shutdown() async {
        try? await threads.shutdownGracefully()
    }
}
