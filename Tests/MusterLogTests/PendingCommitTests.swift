@testable import MusterLog
import Testing

/// The hand-over between the database's queue and the fold loop, in both orders.
@Suite("PendingCommit")
struct PendingCommitTests {
    struct Refused: Error, Equatable {}

    @Test func aResultThatCameFirstIsThereWhenAsked() async throws {
        let pending = PendingCommit<Int>()
        pending.complete(.success(7))
        #expect(try await pending.value() == 7)
    }

    @Test func aWaitingLoopIsWokenWithTheResult() async throws {
        let pending = PendingCommit<Int>()
        async let value = pending.value()
        try await Task.sleep(for: .milliseconds(50)) // the loop is parked by now
        pending.complete(.success(9))
        #expect(try await value == 9)
    }

    @Test func aFailedTransactionIsThrownToTheLoop() async throws {
        let pending = PendingCommit<Int>()
        pending.complete(.failure(Refused()))
        await #expect(throws: Refused.self) { try await pending.value() }
    }
}
