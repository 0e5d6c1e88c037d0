import Foundation
import FoundationNetworking
import Hummingbird
import HummingbirdTesting
import MusterStandIns
import MusterAppTesting
import MusterLog
import MusterPlatform
import MusterEvents
import MusterRuntime
import MusterTesting
import Testing

/// The description is the server: schemathesis (pinned, in `.tools/schemathesis`) generates
/// requests from `schemas/openapi.yaml`, valid and invalid, against every route of a live
/// `serve all`, with a key of the kind each route takes (`scripts/schemathesis_hooks.py`). It fails
/// on any 5xx, a status, header, content type or body the description does not allow, or a request
/// the description refuses that the server takes.
///
/// Not checked: that every request the description allows is taken (`positive_data_acceptance`).
/// Some rules cannot be said in JSON Schema: a day the calendar has, a start within ten years, an
/// action that exists, a state that allows the decision; those answer their documented 422, 404 or
/// 409. Bounded by `MUSTER_ST_SECONDS` (default 120) and `MUSTER_ST_EXAMPLES` per operation (10);
/// the seed is fixed (`MUSTER_ST_SEED`) so a CI failure replays, and `MUSTER_ST_PHASES` (all four by
/// default) runs one phase alone, as `MUSTER_ST_PHASES=coverage` does to replay one found there.
@Suite("The served API against its description (schemathesis)")
struct APIDescriptionTests {
    static var binary: String { Repository.path(".tools/schemathesis/bin/schemathesis") }

    static func setting(_ name: String, _ fallback: String) -> String {
        ProcessInfo.processInfo.environment[name] ?? fallback
    }

    /// Issues a key with `scopes` and waits until the server knows it.
    static func key(_ log: EventLog, port: Int, app: String, _ scopes: [String]) async throws -> String {
        let (key, event) = issuedKey(app: app, scopes: scopes)
        try await log.append(event)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/platform/whoami")!)
        request.setValue(key, forHTTPHeaderField: "X-API-Key")
        try await eventually("key known") {
            ((try? await URLSession.shared.data(for: request))?.1 as? HTTPURLResponse)?.statusCode == 200
        }
        return key
    }

    /// Submits an action and approves it through the routes, so the read routes have something to show.
    static func approvedAction(employer: String, port: Int, key: String) async throws {
        func post(_ path: String, _ json: String) async throws -> (Int, [String: Any]) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = "POST"
            request.setValue(key, forHTTPHeaderField: "X-API-Key")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
        }
        let (status, submitted) = try await post("/api/mobile/submit-strike", """
            {"employer": {"name": "\(employer)", "website": "https://\(employer.lowercased().replacingOccurrences(of: " ", with: "-")).com"},
             "action": {"organization": "Teamsters Local 120", "actionType": "strike", "location": "Rapid City, SD",
             "startDate": "\(Timestamp.string(Date().addingTimeInterval(-86_400)).prefix(10))", "durationDays": 30, "description": "Warehouse strike",
             "coordinates": {"latitude": 44.0805, "longitude": -103.2310}}}
            """)
        let id = try #require(submitted["id"] as? String, "submit answered \(status): \(submitted)")
        try await eventually("approved") {
            try await post("/api/moderation/actions/\(id)/approve", #"{"reason": "seeded"}"#).0 == 200
        }
    }

    @Test func everyAnswerIsOneTheDescriptionAllows() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "run `make tools` (schemathesis goes into .tools/)")
        // Sign-in's providers stand in locally (no network here): what schemathesis sends them is judged, not a timeout.
        let identity = Application(router: IdentityStandIn.router(keys: IdentityStandIn.Keys()))
        let texts = Application(router: SMSStandIn.router(recorder: SMSStandIn.Recorder()))
        try await identity.test(.live) { identityClient in
        try await texts.test(.live) { textsClient in
        let (idPort, smsPort) = (try #require(identityClient.port), try #require(textsClient.port))
        try await apps.withLiveServer(["all"], configure: {
            $0.readRatePerMinute = 0
            $0.writeRatePerMinute = 0
            // A pooled connection schemathesis takes up again just as the server's keep-alive limit
            // closes it meets a reset (the race every keep-alive server has): not what this test judges.
            $0.connectionLimits.idleTimeout = .seconds(600)
            $0[SignInSettings.self].appleKeysURL = "http://127.0.0.1:\(idPort)/apple/keys"
            $0[SignInSettings.self].googleKeysURL = "http://127.0.0.1:\(idPort)/google/keys"
            $0[SignInSettings.self].smsURL = "http://127.0.0.1:\(smsPort)"
            $0[InvitationSettings.self].mailURL = "http://127.0.0.1:\(smsPort)" // the same stand-in answers like SendGrid
        }) { env, port in
            let opl = try await Self.key(env.log, port: port, app: "opl",
                                         ["read:mobile", "write:submit-strike", "write:gps-snapshot", "write:dns-stats", "moderate:opl",
                                          "devices:register"])
            let analytics = try await Self.key(env.log, port: port, app: "offleash", ["write:analytics", "write:crashes", "read:analytics"])
            let admin = try await Self.key(env.log, port: port, app: "platform", ["admin:platform"])
            let pop = try await Self.key(env.log, port: port, app: "pop", ["read:civics", "write:civics", "export:newsletter"])
            for employer in ["Acme Logistics", "Prairie Fresh"] {
                try await Self.approvedAction(employer: employer, port: port, key: opl)
            }
            // A signed-in person for the routes that take a bearer token.
            let people = People.shared(in: env.environment)
            try await people.createOrganisationPatiently(slug: "demo", app: "offleash", name: "Demo walks")
            let person = try await people.register(People.Registration(orgSlug: "demo", email: "st@example.com", firstName: "S",
                                                                       lastName: "T", phone: nil, password: "Schemathesis1"),
                                                   policy: People.TokenPolicy(app: "offleash", signUpRole: "customer"))

            let output = env.server.directory.appendingPathComponent("schemathesis.txt")
            try #require(FileManager.default.createFile(atPath: output.path, contents: nil))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.currentDirectoryURL = env.server.directory // its caches stay in the test's folder
            process.arguments = [
                "run", Repository.path("schemas/openapi.yaml"), "--url", "http://127.0.0.1:\(port)",
                "--checks", "all", "--exclude-checks", "positive_data_acceptance",
                "--max-examples", Self.setting("MUSTER_ST_EXAMPLES", "10"), "--max-time", Self.setting("MUSTER_ST_SECONDS", "120"),
                "--seed", Self.setting("MUSTER_ST_SEED", "20261123"), "--no-color",
                "--phases", Self.setting("MUSTER_ST_PHASES", "examples,coverage,fuzzing,stateful"),
                // Not the client's 10 s: the server bounds its own waits (5 s for the log's ack), so a later
                // answer is a starved machine (CI runs this beside kill -9 and cluster tests on 2 cores),
                // not an answer the description forbids. A request that hangs still fails.
                "--request-timeout", "30",
            ]
            process.environment = ProcessInfo.processInfo.environment.merging([
                "SCHEMATHESIS_HOOKS": "scripts.schemathesis_hooks", "PYTHONPATH": Repository.path("."),
                "MUSTER_ST_OPL_KEY": opl, "MUSTER_ST_ANALYTICS_KEY": analytics, "MUSTER_ST_ADMIN_KEY": admin, "MUSTER_ST_POP_KEY": pop,
                "MUSTER_ST_BEARER": person.accessToken,
            ]) { _, new in new }
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
            try process.runAlone()
            let ending = try await process.waitForExit(within: .seconds(400), "schemathesis")
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            let summary = text.components(separatedBy: "\n").filter { $0.contains("generated") || $0.contains(" in ") && $0.contains("====") }
            print("schemathesis: \(summary.joined(separator: " | "))")
            // The errors and failures in full (each names its operation and request), not only the end of the
            // output: schemathesis prints ERRORS (a request that got no answer) before FAILURES, both before WARNINGS.
            let first = ["ERRORS", "FAILURES"].compactMap { text.range(of: $0)?.lowerBound }.min()
            let failures = first.map { String(text[$0...].components(separatedBy: "WARNINGS").first ?? "") } ?? String(text.suffix(6000))
            #expect(ending == .exited(0), "schemathesis found answers the description does not allow:\n\(failures.prefix(20_000))")
            // Every part of the description is checked: no reference it cannot resolve (19 schemas once
            // sat under components.headers, and 28 operations' bodies went unchecked).
            #expect(!text.contains("Unresolvable references"), "schemathesis skipped parts of the description:\n\(text.suffix(4000))")
        }
        }
        }
    }
}
