import NIOCore
import NIOPosix

/// Where folds and event processors run: threads of their own, not the event loops HTTP is served
/// on. `muster` runs Swift concurrency on NIO's event loops (`installMusterExecutor`), and a loop
/// runs every queued task before it reads its sockets again, so a fold catching up a backlog in
/// batches of 512 held one loop's sockets for up to a second (issue 36: `/health` answered late
/// right after the log came back). Here the kernel shares the cores between folds and the loops.
///
/// A task executor *preference*: a query that reads a projection's actor still runs on its own
/// event loop when the actor is free; only the fold's own task runs here.
package final class FoldExecutor: TaskExecutor {
    /// One per process, as many threads as cores: folds of different projections run side by side.
    package static let shared = FoldExecutor(threads: System.coreCount)

    private let group: MultiThreadedEventLoopGroup

    init(threads: Int) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // The loop the job comes from when it is one of ours (a fold going on after an await on
        // its own thread), else the next: `next()` for every job handed each one to the other
        // thread, a wake-up per step of every fold (two per sign-in, measured with perf sched).
        group.any().execute { job.runSynchronously(on: executor) }
    }
}

/// Runs `body` (a fold's or processor's whole life) on `FoldExecutor.shared`.
package func onFoldThreads<T: Sendable>(isolation: isolated (any Actor)? = #isolation,
                                       _ body: () async throws -> T) async rethrows -> T {
    try await withTaskExecutorPreference(FoldExecutor.shared, isolation: isolation, operation: body)
}
