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
            #expect(bogus.output.contains("unknown scope bogus:scope") && bogus.output.contains(OPLScopes.moderate), "\(bogus.output)")
            #expect(try await env.log.jetStream.streamInfo(env.log.configuration.eventsStream).state.messages == 0)
        }
    }
}
