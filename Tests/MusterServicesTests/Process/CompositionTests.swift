import Foundation
import MusterAppTesting
import MusterLog
import MusterOPL
import MusterPlatform
import MusterRuntime
import MusterTesting
import Testing

/// The production list of apps: each role runs only the folds it reads, each once.
@Suite("Composition of the production apps")
struct CompositionTests {
    @Test func eachRoleRunsOnlyTheFoldsItAsksForAndEachOnce() async throws {
        try await apps.withTestLog { env in
            func folds(_ roles: [String]) -> [String] {
                let environment = MusterEnvironment(configuration: env.environment.configuration, logger: env.environment.logger,
                                                    connection: env.connection, catalog: apps.catalog,
                                                    metrics: env.environment.metrics, source: "test", keyScopes: apps.keyScopes)
                _ = apps.modules(roles, environment: environment)
                return environment.projections.all.map(\.projectionName)
            }
            #expect(folds(["collector"]) == ["keys"])
            #expect(Set(folds(["notifier"])) == ["analytics", "pushes", "devices"])
            #expect(folds(["geocode"]) == ["keys"])
            #expect(folds(["query"]).contains("pushes") && !folds(["query"]).contains("devices"), "a push's status needs no devices")
            #expect(Set(folds(["ingest"])) == ["keys", "opl", "people", "offleash", "devices", "shieldai", "pop", "newsletter", "civics", "field"])
            #expect(folds(["query"]).contains("civics") && !folds(["query"]).contains("newsletter"), "the civics reads are the query role's")
            #expect(Set(folds(["moderation"])) == ["keys", "opl", "people"]) // moderators sign in with accounts
            let all = folds(ServiceRole.names)
            #expect(Set(all) == ["keys", "opl", "analytics", "funnel", "people", "offleash", "devices", "pushes", "shieldai", "pop", "newsletter",
                                "civics", "field"] && all.count == 13,
                    "each once: \(all)")
            // What `muster replay` can rebuild is what the apps define.
            #expect(Set(apps.projections.map { $0.name }) == Set(all))
        }
    }
}
