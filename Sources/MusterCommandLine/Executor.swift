import Foundation
import NIOCore
import NIOPosix

/// Runs Swift concurrency on NIO's event loops (the ones Hummingbird serves on), so a request's
/// handler runs on the thread that read it instead of hopping to Dispatch's pool and back: on two
/// cores that hop cost more than the handlers did. Call first in `main`, before any task exists;
/// `MUSTER_EXECUTOR=dispatch` keeps the default executor. `muster` and `muster-bench` both do, so
/// the benchmarks measure what production runs. The price: a loop runs every queued task before it
/// reads its sockets again, so long CPU-bound work (folds, rebuilds, processors) runs `onFoldThreads`.
package func installMusterExecutor() {
    if ProcessInfo.processInfo.environment["MUSTER_EXECUTOR"] != "dispatch" {
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
