import Foundation
import MusterLog
import MusterOPL
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import Testing

/// One fold per process, made on first request, run once; readers wait for it without polling.
@Suite("Projection registry and waiting for a fold")
struct ProjectionRegistryTests {
    @Test func eachRoleRunsOnlyTheFoldsItAsksForAndEachOnce() async throws {
        try await withTestLog { env in
            func folds(_ roles: [String]) -> [String] {
                let environment = MusterEnvironment(configuration: env.environment.configuration, logger: env.environment.logger,
                                                    connection: env.connection, catalog: MusterProcess.catalog,
                                                    metrics: env.environment.metrics, source: "test")
                _ = MusterProcess.modules(roles, environment: environment)
                return environment.projections.all.map(\.projectionName)
            }
            #expect(folds(["collector"]) == ["keys"])
            #expect(folds(["notifier"]) == ["analytics"])
            #expect(folds(["geocode"]) == ["keys"])
            #expect(Set(folds(["ingest"])) == ["keys", "opl"])
            #expect(Set(folds(["moderation"])) == ["keys", "opl"])
            let all = folds(MusterProcess.serviceNames)
            #expect(Set(all) == ["keys", "opl", "analytics", "funnel"] && all.count == 4, "each once: \(all)")
            // What `muster replay` can rebuild is what the apps define.
            #expect(Set(MusterProcess.apps.flatMap(\.projections).map { $0.name }) == Set(all))
        }
    }

    @Test func aSecondRunOfOneRunnerIsRefused() async throws {
        try await withTestLog { env in
            let keys = env.environment.projections.runner(KeysProjection.self)
            #expect(env.environment.projections.runner(KeysProjection.self) === keys)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await keys.run() }
                try await eventually("running") { await keys.caughtUp }
                await #expect(throws: ProjectionRunError.self) { try await keys.run() }
                group.cancelAll()
            }
        }
    }

    @Test func waitersResumeWhenTheFoldArrivesTimeOutOrAreCancelled() async throws {
        try await withTestLog { env in
            let keys = env.environment.projections.runner(KeysProjection.self)
            #expect(await keys.waitUntilApplied(0, timeout: .zero), "sequence 0 is applied from the start")
            #expect(await !keys.waitUntilApplied(1, timeout: .milliseconds(50)), "nothing folded, nothing running")

            let cancelled = Task { await keys.waitUntilApplied(5, timeout: .seconds(60)) }
            cancelled.cancel()
            #expect(await !cancelled.value, "a cancelled waiter returns at once")

            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await keys.run() }
                async let early = keys.waitUntilApplied(2, timeout: .seconds(20))
                async let later = keys.waitUntilApplied(3, timeout: .seconds(20))
                try await env.log.append(issuedKey(scopes: ["read:mobile"]).event)
                try await env.log.append(issuedKey(scopes: ["read:mobile"]).event)
                let started = ContinuousClock.now
                #expect(await early)
                #expect(ContinuousClock.now - started < .seconds(5))
                try await env.log.append(issuedKey(scopes: ["read:mobile"]).event)
                #expect(await later)
                group.cancelAll()
            }
        }
    }
}
