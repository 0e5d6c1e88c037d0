import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterLog
import MusterNATS
import MusterPlatform
import MusterTesting
import Testing

/// `muster people` as an operator runs it, against the test's log and a running ingest.
@Suite("muster people: an organisation, a walker, forgetting a customer")
struct PeopleCommandTests {
    @Test func anOperatorAddsPeopleAndForgetsOneByEmail() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        let cli = KeysCommandTests()
        try await apps.withTestApp(["ingest"]) { app in
            let nats = ["--nats-url", app.env.server.url]
            let org = try await cli.muster(["people", "create-org", "--slug", "demo", "--app", "offleash", "--name", "Demo"] + nats)
            #expect(org.status == 0 && org.output.contains("organisation demo (offleash)"), "\(org.output)")
            let weak = try await cli.muster(["people", "add", "--org", "demo", "--role", "walker", "--email", "sam@example.com",
                                             "--first-name", "Sam", "--last-name", "Strider"] + nats, input: "short\n")
            #expect(weak.status != 0 && weak.output.contains("at least 8"), "\(weak.output)")
            let walker = try await cli.muster(["people", "add", "--org", "demo", "--role", "walker", "--email", "sam@example.com",
                                               "--first-name", "Sam", "--last-name", "Strider"] + nats, input: "Walkies2026\n")
            #expect(walker.status == 0 && walker.output.hasPrefix("walker "), "\(walker.output)")

            let people = People.shared(in: app.env.environment)
            try await eventually("the server knows the organisation") { await people.runner.read { $0.orgBySlug["demo"] } != nil }
            let registered = try await app.request("/auth/register", method: .post, json: """
            {"first_name": "Casey", "last_name": "Customer", "email": "casey@example.com", "password": "Walkies2026"}
            """)
            #expect(registered.status == .created, "\(registered.text)")
            let forgot = try await cli.muster(["people", "forget", "--org", "demo", "--email", "CASEY@example.com"] + nats)
            #expect(forgot.status == 0 && forgot.output.contains("forgot "), "\(forgot.output)")
            try await eventually("the customer can no longer sign in") {
                try await app.request("/auth/login", method: .post, json: #"{"email": "casey@example.com", "password": "Walkies2026"}"#).status == .badRequest
            }
            let tail = try await cli.muster(["tail", "--all", "--no-follow"] + nats)
            #expect(tail.status == 0 && tail.output.contains("platform.person."), "\(tail.output.suffix(500))")
            #expect(!tail.output.lowercased().contains("casey"), "the log holds no name or email in clear")
            let nobody = try await cli.muster(["people", "forget", "--org", "demo", "--email", "nobody@example.com"] + nats)
            #expect(nobody.status != 0 && nobody.output.contains("no person"), "\(nobody.output)")
        }
    }
}
