import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterLog
import MusterNATS
import MusterOPL
import MusterTesting
import Testing

/// `muster keys` as an operator runs it, against the test's log.
@Suite("muster keys: import a shipped key, refuse unknown scopes")
struct KeysCommandTests {
    /// Runs `muster ARGS` with `input` on standard input; returns the exit status and all it printed.
    func muster(_ arguments: [String], input: String = "") async throws -> (status: Int32, output: String) {
        let result = try await runToEnd(KillNineTests.binary, arguments, input: Data(input.utf8), within: .seconds(120))
        return (result.status, result.output + result.error)
    }

    @Test func anImportedKeyOpensTheReadRoutesAndIsNeverPrinted() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        try await apps.withTestApp(["query"]) { app in
            let shipped = "opl_" + String(repeating: "5e", count: 32) // as a published client would carry it
            let nats = ["--nats-url", app.env.server.url]
            let imported = try await muster(["keys", "import", "--app", "opl", "--scopes", "read:mobile"] + nats, input: shipped + "\n")
            #expect(imported.status == 0, "\(imported.output)")
            #expect(!imported.output.contains(shipped) && imported.output.contains("imported key_"))
            try await eventually("the key opens /api/mobile/data") {
                try await app.request("/api/mobile/data?lat=0&lng=0", key: shipped).status == .ok
            }
            let again = try await muster(["keys", "import", "--app", "opl", "--scopes", "read:mobile"] + nats, input: shipped)
            #expect(again.status != 0 && again.output.contains("imported before"), "\(again.output)")
            let malformed = try await muster(["keys", "import", "--app", "opl", "--scopes", "read:mobile"] + nats, input: "opl_123")
            #expect(malformed.status != 0 && malformed.output.contains("64 lowercase hex"), "\(malformed.output)")
        }
    }

    @Test func unknownScopesAreRefusedWithTheKnownOnesListed() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        try await apps.withTestLog { env in
            let bogus = try await muster(["keys", "issue", "--app", "opl", "--scopes", "read:mobile,bogus:scope", "--nats-url", env.server.url])
            #expect(bogus.status != 0, "\(bogus.output)")
            #expect(bogus.output.contains("scope bogus:scope is unknown") && bogus.output.contains(OPLScopes.moderate), "\(bogus.output)")
            // Hole 6 of the authorization review: any app was given any scope. A PoP key cannot
            // moderate OPL; an OFFLEASH key cannot administer the platform.
            let foreign = try await muster(["keys", "issue", "--app", "pop", "--scopes", "moderate:opl", "--nats-url", env.server.url])
            #expect(foreign.status != 0 && foreign.output.contains("scope moderate:opl is not one of pop's"), "\(foreign.output)")
            let admin = try await muster(["keys", "issue", "--app", "offleash", "--scopes", "admin:platform", "--nats-url", env.server.url])
            #expect(admin.status != 0 && admin.output.contains("admin:platform is not one of offleash's"), "\(admin.output)")
            let shared = try await muster(["keys", "issue", "--app", "pop", "--scopes", "read:civics,push:send,write:analytics", "--nats-url", env.server.url])
            #expect(shared.status == 0, "an app's own scopes and the shared services' are fine: \(shared.output)")
            #expect(try await env.log.jetStream.streamInfo(env.log.configuration.eventsStream).state.messages == 1, "only the good key")
        }
    }
}
