import Foundation
import MusterNATS
import MusterTesting
import Synchronization
import Testing

/// The deadlines every wait on a connection shares (`Timeouts`): one timer, armed for the earliest
/// deadline while something waits.
@Suite("Deadlines on one timer")
struct TimeoutsTests {
    @Test func aDeadlineFiresOnceAndACancelledOneNever() async throws {
        let timeouts = Timeouts(resolution: .milliseconds(10))
        let fired = Mutex<[String]>([])
        let started = ContinuousClock.now
        timeouts.schedule(after: .milliseconds(50)) { fired.withLock { $0.append("due") } }
        let cancelled = timeouts.schedule(after: .milliseconds(50)) { fired.withLock { $0.append("cancelled") } }
        timeouts.cancel(cancelled)
        try await eventually("the deadline fired", timeout: .seconds(5)) { fired.withLock { !$0.isEmpty } }
        #expect(ContinuousClock.now - started >= .milliseconds(50), "not before its time")
        try await Task.sleep(for: .milliseconds(100))
        #expect(fired.withLock { $0 } == ["due"])
        #expect(timeouts.waiting == 0, "nothing left once it fired")
    }

    /// The timer is armed for the earliest deadline, not ticking: a shorter wait scheduled after a
    /// long one still fires on time, and once nothing waits the timer is disarmed.
    @Test func aShorterDeadlineRearmsTheTimerAndNoneLeftDisarmsIt() async throws {
        let timeouts = Timeouts(resolution: .milliseconds(10))
        let fired = Mutex<[String]>([])
        let long = timeouts.schedule(after: .seconds(3600)) { fired.withLock { $0.append("hour") } }
        let started = ContinuousClock.now
        timeouts.schedule(after: .milliseconds(50)) { fired.withLock { $0.append("short") } }
        try await eventually("the short deadline fired", timeout: .seconds(5)) { fired.withLock { !$0.isEmpty } }
        #expect(ContinuousClock.now - started < .seconds(3), "the hour-long wait did not hold it back")
        #expect(fired.withLock { $0 } == ["short"])
        #expect(timeouts.armed, "armed for the hour-long one still waiting")
        timeouts.cancel(long)
        let ended = timeouts.schedule(after: .milliseconds(20)) { fired.withLock { $0.append("last") } }
        timeouts.cancel(ended)
        try await eventually("disarmed once nothing waits", timeout: .seconds(5)) { !timeouts.armed }
        #expect(fired.withLock { $0 } == ["short"], "no cancelled deadline fired")
    }

    /// Many waits from many tasks at once, of mixed lengths, half of them ended first: every one
    /// left to its deadline fires, once, not before it; no ended one fires; nothing is left armed.
    @Test func manyWaitsFromManyTasksEachFireOnceOrNever() async throws {
        let timeouts = Timeouts(resolution: .milliseconds(5))
        final class Record: Sendable {
            let fired = Mutex<[Int: Int]>([:])
            let early = Mutex<[Int]>([])
        }
        let record = Record()
        await withTaskGroup(of: Void.self) { group in
            for task in 0 ..< 8 {
                group.addTask {
                    for index in 0 ..< 250 {
                        let id = task * 1000 + index
                        let limit = Duration.milliseconds(Int.random(in: 1 ... 120))
                        let started = ContinuousClock.now
                        let token = timeouts.schedule(after: limit) {
                            if ContinuousClock.now - started < limit { record.early.withLock { $0.append(id) } }
                            record.fired.withLock { $0[id, default: 0] += 1 }
                        }
                        if id % 2 == 1 { timeouts.cancel(token) }
                        if index % 50 == 0 { try? await Task.sleep(for: .milliseconds(Int.random(in: 0 ... 20))) }
                    }
                }
            }
        }
        try await eventually("every wait left to its deadline fired", timeout: .seconds(10)) { record.fired.withLock { $0.count } == 1000 }
        try await Task.sleep(for: .milliseconds(200))
        let counts = record.fired.withLock { $0 }
        #expect(counts.count == 1000 && counts.values.allSatisfy { $0 == 1 } && counts.keys.allSatisfy { $0 % 2 == 0 })
        #expect(record.early.withLock { $0 }.isEmpty, "none before its time")
        #expect(timeouts.waiting == 0)
        try await eventually("disarmed", timeout: .seconds(5)) { !timeouts.armed }
    }

    @Test func closingEndsEveryWaitAndLaterOnesAtOnce() async throws {
        let timeouts = Timeouts()
        let fired = Mutex(0)
        for _ in 0 ..< 3 { timeouts.schedule(after: .seconds(3600)) { fired.withLock { $0 += 1 } } }
        timeouts.close()
        #expect(fired.withLock { $0 } == 3, "a close tells every waiter now, not in an hour")
        timeouts.schedule(after: .seconds(3600)) { fired.withLock { $0 += 1 } }
        try await eventually("a deadline after the close passes at once", timeout: .seconds(5)) { fired.withLock { $0 } == 4 }
    }

    /// A request that is answered leaves no deadline behind; one that is not times out near its
    /// limit; a cancelled one ends at once.
    @Test func requestsAnsweredTimedOutAndCancelled() async throws {
        try await withNATS { nats, _ in
            let service = try await nats.subscribe("echo.deadline")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await request in service { try nats.publish(request.replyTo!, payload: request.payload) }
                }
                for i in 0 ..< 50 { _ = try await nats.request("echo.deadline", payload: Data("\(i)".utf8), timeout: .seconds(30)) }
                #expect(nats.timeouts.waiting == 0, "every answered request's deadline is gone")

                // A subscriber that never answers: the request times out near its limit.
                let sink = try await nats.subscribe("sink")
                let started = ContinuousClock.now
                let error = await #expect(throws: NATSError.self) {
                    _ = try await nats.request("sink", timeout: .milliseconds(300))
                }
                #expect(error?.code == .timeout)
                let waited = ContinuousClock.now - started
                #expect(waited >= .milliseconds(300) && waited < .seconds(3), "timed out after \(waited)")

                // A cancelled request ends at once, not at its deadline, and leaves none behind.
                let silent = Task { _ = try await nats.request("sink", timeout: .seconds(30)) }
                #expect(await sink.next(timeout: .seconds(5)) != nil, "the request left")
                let cancelled = ContinuousClock.now
                silent.cancel()
                await #expect(throws: CancellationError.self) { try await silent.value }
                #expect(ContinuousClock.now - cancelled < .seconds(3))
                #expect(nats.timeouts.waiting == 0)
                sink.unsubscribe()
                service.unsubscribe()
                try await group.waitForAll()
            }
        }
    }
}
