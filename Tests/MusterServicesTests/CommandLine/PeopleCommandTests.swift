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
@Suite("muster people: an organisation, a walker made admin, suspended and reinstated, forgetting a customer")
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
            // Another role, a suspension and a reinstatement, from the command line as from the console.
            let admin = try await cli.muster(["people", "role", "--org", "demo", "--email", "sam@example.com", "--role", "admin"] + nats)
            #expect(admin.status == 0 && admin.output.contains("is now admin"), "\(admin.output)")
            let noRole = try await cli.muster(["people", "role", "--org", "demo", "--email", "sam@example.com", "--role", "moderator"] + nats)
            #expect(noRole.status != 0 && noRole.output.contains("is not a role of offleash"), "\(noRole.output)")
            let suspended = try await cli.muster(["people", "suspend", "--org", "demo", "--email", "sam@example.com", "--reason", "Audit"] + nats)
            #expect(suspended.status == 0 && suspended.output.contains("is suspended"), "\(suspended.output)")
            try await eventually("a suspended walker cannot sign in") {
                try await app.request("/auth/login", method: .post, json: #"{"email": "sam@example.com", "password": "Walkies2026"}"#).status == .badRequest
            }
            let back = try await cli.muster(["people", "reinstate", "--org", "demo", "--email", "sam@example.com"] + nats)
            #expect(back.status == 0 && back.output.contains("may sign in again"), "\(back.output)")
            try await eventually("a reinstated admin signs in") {
                try await app.request("/auth/login", method: .post, json: #"{"email": "sam@example.com", "password": "Walkies2026"}"#).status == .ok
            }

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
