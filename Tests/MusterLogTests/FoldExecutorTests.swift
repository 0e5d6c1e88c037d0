import MusterLog
import NIOPosix
import Testing

@Suite("Folds run on threads of their own, not on the event loops HTTP is served on")
struct FoldExecutorTests {
    /// The tests' own tasks run on Dispatch's pool (no event loop); a fold's on one of
    /// `FoldExecutor`'s loops, before and after every suspension.
    @Test func aFoldStaysOnTheFoldThreadsAcrossSuspensions() async throws {
        #expect(MultiThreadedEventLoopGroup.currentEventLoop == nil)
        let onFoldThreads = try await onFoldThreads {
            var seen: [Bool] = []
            for _ in 0..<5 {
                seen.append(MultiThreadedEventLoopGroup.currentEventLoop != nil)
                try await Task.sleep(for: .milliseconds(1))
            }
            return seen
        }
        #expect(onFoldThreads == [true, true, true, true, true])
    }
}
