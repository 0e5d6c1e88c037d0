import Dispatch

/// Runs a blocking call on a Dispatch thread, so it never holds one of the few threads Swift
/// concurrency runs the server on (two on a 2-core machine).
package func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: body()) }
    }
}

