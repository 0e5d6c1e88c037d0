import MusterAppTesting
import MusterLog
import MusterRuntime
import MusterTesting
import Testing

/// One fold per process, made on first request, run once; readers wait for it without polling.
@Suite("Projection registry and waiting for a fold")
struct ProjectionRegistryTests {
    @Test func aSecondRunOfOneRunnerIsRefused() async throws {
        try await apps.withTestLog { env in
            let totals = env.environment.projections.runner(Totals.self)
            #expect(env.environment.projections.runner(Totals.self) === totals)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await totals.run() }
                try await eventually("running") { await totals.caughtUp }
                await #expect(throws: ProjectionRunError.self) { try await totals.run() }
                group.cancelAll()
            }
        }
    }

    @Test func waitersResumeWhenTheFoldArrivesTimeOutOrAreCancelled() async throws {
        try await apps.withTestLog { env in
            let totals = env.environment.projections.runner(Totals.self)
            #expect(await totals.waitUntilApplied(0, timeout: .zero), "sequence 0 is applied from the start")
            #expect(await !totals.waitUntilApplied(1, timeout: .milliseconds(50)), "nothing folded, nothing running")

            let cancelled = Task { await totals.waitUntilApplied(5, timeout: .seconds(60)) }
            cancelled.cancel()
            #expect(await !cancelled.value, "a cancelled waiter returns at once")

            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await totals.run() }
                // Their clocks start now: `later` has to outlast `early`'s wait too, on a loaded machine.
                async let early = totals.waitUntilApplied(2, timeout: .seconds(60))
                async let later = totals.waitUntilApplied(3, timeout: .seconds(120))
                try await env.log.append(TallyAdded(tallyId: "t", amount: 1))
                try await env.log.append(TallyAdded(tallyId: "t", amount: 1))
                let started = ContinuousClock.now
                #expect(await early)
                // Well before the 60 s timeout: woken by the fold, not by the clock. (Not tighter: the
                // whole suite starts a hundred servers at once on two cores, and a first fetch waits;
                // a fresh clone on a slow day took 18.4 s.)
                #expect(ContinuousClock.now - started < .seconds(30))
                try await env.log.append(TallyAdded(tallyId: "t", amount: 1))
                #expect(await later)
                group.cancelAll()
            }
        }
    }
}
