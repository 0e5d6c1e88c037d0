@testable import MusterLog
import Testing

@Suite("Callers waiting for the fold: resumed in sequence order, each once")
struct AppliedWaitersTests {
    @Test func aCheckpointResumesExactlyTheCallersItReached() {
        var waiters = AppliedWaiters<String>()
        for (name, sequence) in [("c", UInt64(30)), ("a", 10), ("d", 40), ("b", 20), ("a2", 10)] {
            waiters.add(name, id: waiters.reserveID(), sequence: sequence)
        }
        #expect(waiters.due(upTo: 9).isEmpty)
        #expect(Set(waiters.due(upTo: 20)) == ["a", "a2", "b"])
        #expect(waiters.due(upTo: 20).isEmpty) // each once
        #expect(waiters.due(upTo: 100) == ["c", "d"])
        #expect(waiters.isEmpty)
    }

    @Test func aCallerThatLeftIsNeverResumed() {
        var waiters = AppliedWaiters<Int>()
        let early = waiters.reserveID(), late = waiters.reserveID()
        waiters.add(1, id: early, sequence: 5)
        waiters.add(2, id: late, sequence: 6)
        #expect(waiters.remove(id: early) == 1)
        #expect(waiters.remove(id: early) == nil)
        #expect(waiters.due(upTo: 10) == [2])
    }

    /// Callers that time out while the fold stands still leave entries behind: they do not pile up.
    @Test func thousandsOfCallersThatLeftLeaveNoPileBehind() {
        var waiters = AppliedWaiters<Int>()
        for n in 0..<10_000 {
            let id = waiters.reserveID()
            waiters.add(n, id: id, sequence: UInt64(100 + n % 7))
            _ = waiters.remove(id: id)
        }
        let id = waiters.reserveID()
        waiters.add(-1, id: id, sequence: 1)
        #expect(waiters.due(upTo: 1_000) == [-1])
        #expect(waiters.isEmpty)
    }
}
