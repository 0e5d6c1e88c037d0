import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterRuntime
import Testing

/// An app declared through `MusterApp` and composed by `MusterApps` is served on the roles it
/// adds routes to, and only there; the log's refusals reach the client as the one mapping says.
@Suite("Composing an app into roles")
struct AppCompositionTests {
    @Test func aWriteOnIngestIsFoldedAndReadOnQuery() async throws {
        try await apps.withTestApp(["ingest", "query"]) { app in
            let written = try await app.request("/tally/a", method: .post, json: #"{"amount": 3}"#)
            #expect(written.status == .created, "\(written.text)")
            let sequence = try #require(written.json["sequence"] as? Int, "\(written.status): \(written.text)")
            try await app.settled("totals", at: UInt64(sequence))
            let read = try await app.request("/tally/a")
            #expect(read.status == .ok && read.json["total"] as? Int == 3, "\(read.text)")
        }
    }

    @Test func anEventTheLogRefusesIsA422NamingTheField() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let refused = try await app.request("/tally/a", method: .post, json: #"{"amount": 5000}"#)
            #expect(refused.status == .unprocessableContent && refused.errorMessage.contains("amount"), "\(refused.text)")
            let malformed = try await app.request("/tally/a", method: .post, json: #"{"amount": "#)
            #expect(malformed.status == .badRequest, "\(malformed.text)")
        }
    }

    @Test func aRoleServesOnlyWhatTheAppsAddToIt() async throws {
        try await apps.withTestApp(["query"]) { app in
            let write = try await app.request("/tally/a", method: .post, json: #"{"amount": 3}"#)
            #expect(write.status == .notFound || write.status == .methodNotAllowed, "\(write.status)")
            #expect(try await app.request("/tally/a").status == .ok)
        }
    }
}
