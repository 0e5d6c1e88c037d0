import Foundation
import MusterAppTesting
import MusterLog
import MusterOFFLEASH
import MusterOPL
import MusterPlatform
import MusterPoP
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
                                                    metrics: env.environment.metrics, source: "test", apps: apps.directory)
                _ = apps.modules(roles, environment: environment)
                return environment.projections.all.map(\.projectionName)
            }
            #expect(folds(["collector"]) == ["keys"])
            // The notifier's rules read the apps' folds (OFFLEASH's bookings, PoP's calendar), its mail the people's addresses.
            #expect(Set(folds(["notifier"])) == ["analytics", "pushes", "devices", "notifications", "offleash", "calendar", "people", "field"])
            #expect(folds(["geocode"]) == ["keys"])
            #expect(folds(["query"]).contains("pushes") && !folds(["query"]).contains("devices"), "a push's status needs no devices")
            #expect(Set(folds(["ingest"])) == ["keys", "opl", "people", "offleash", "devices", "shieldai", "pop", "newsletter", "civics", "field",
                                             "notifications", "calendar"])
            #expect(folds(["query"]).contains("civics") && !folds(["query"]).contains("newsletter"), "the civics reads are the query role's")
            #expect(Set(folds(["moderation"])) == ["keys", "opl", "people"]) // moderators sign in with accounts
            let all = folds(ServiceRole.names)
            #expect(Set(all) == ["keys", "opl", "analytics", "funnel", "people", "offleash", "devices", "pushes", "shieldai", "pop", "newsletter",
                                "civics", "field", "notifications", "calendar"] && all.count == 15,
                    "each once: \(all)")
            // What `muster replay` can rebuild is what the apps define.
            #expect(Set(apps.projections.map { $0.name }) == Set(all))
        }
    }
}

/// The platform names no app: what it allows comes from the apps in the list.
@Suite("The app registry and each module's settings")
struct AppRegistryTests {
    @Test func thePlatformsAppsAndRolesAreTheListsOwn() {
        let directory = apps.directory
        #expect(directory.keyApps == ["opl", "pop", "shieldai", "field", "offleash", "platform"])
        #expect(directory.clientApps == ["opl", "pop", "shieldai", "field", "offleash"])
        #expect(directory.roles(of: "offleash") == ["customer", "walker", "admin", "owner"])
        #expect(directory.roles(of: "field") == ["worker", "manager"])
        #expect(directory.roles(of: "analytics").isEmpty && !directory.keyApps.contains("analytics"))
    }

    /// Every variable a module reads is in docs/operations.md, and a bad value stops the start
    /// with the variable named.
    @Test func everyModulesVariablesAreDocumentedAndCheckedAtStart() throws {
        let docs = try String(contentsOfFile: Repository.path("docs/operations.md"), encoding: .utf8)
        func variables<S: AppSettings>(_ type: S.Type) -> [String] { S.Variable.allCases.map(\.rawValue) }
        let all = apps.settings.flatMap { variables($0) }
        #expect(all.count >= 20)
        for name in all {
            let short = "_" + (name.split(separator: "_").last ?? "")
            #expect(docs.contains("`\(name)`") || docs.contains("`\(short)`"), "\(name) is not in docs/operations.md")
        }
        for (name, value) in [("MUSTER_OFFLEASH_TOKEN_SECONDS", "forever"), ("MUSTER_APNS_SANDBOX_URL", "http://plain"),
                              ("MUSTER_SMS_URL", "ftp://x"), ("MUSTER_LOGIN_ATTEMPTS_PER_ADDRESS", "-1"), ("MUSTER_PASSWORD_HASH_THREADS", "0"),
                              ("MUSTER_OFFLEASH_APPLE_AUDIENCES", " , "), ("MUSTER_POP_CONFIG", "")] {
            let error = #expect(throws: ConfigurationError.self) {
                try MusterConfiguration.fromEnvironment([name: value], modules: apps.settings)
            }
            #expect(error?.description.hasPrefix("\(name)=") == true, "\(String(describing: error))")
        }
        let read = try MusterConfiguration.fromEnvironment(["MUSTER_OFFLEASH_TOKEN_SECONDS": "3600", "MUSTER_POP_CONFIG": "/etc/pop"],
                                                           modules: apps.settings)
        #expect(read[OFFLEASHSettings.self].tokenLifetime == .seconds(3600) && read[PoPSettings.self].configPath == "/etc/pop")
    }
}
