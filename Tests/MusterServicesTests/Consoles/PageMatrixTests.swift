import Foundation
import FoundationNetworking
import MusterAppTesting
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import Testing

/// Every page and form of every console (each `page:` operation of `schemas/openapi.yaml`) with
/// a page session of each kind: the one the pages admit gets through (and its forms without their
/// token are 403 and change nothing), the same app's person or key the pages do not admit (a
/// walker at the business console, a worker at the managers' console, a key without the scope)
/// and another app's admitted one (for the dashboards, which take any app's key, a person) get the
/// sign-in form (401).
@Suite("Authorization matrix: every console page and form, every kind of page session")
struct PageMatrixTests {
    struct Session {
        var caller: String
        var credential: String
    }

    @Test func everyPageAndFormAnswersEveryPageSessionAsItsRuleSays() async throws {
        let listed = try await Repository.run(["python3", "scripts/openapi_routes.py", "schemas/openapi.yaml"], environment: Repository.pythonEnvironment)
        try #require(listed.status == 0, "openapi check failed: \(listed.error)")
        let operations = try JSONDecoder().decode([AuthorizationMatrixTests.Operation].self, from: Data(listed.output.utf8))
            .filter { $0.access.hasPrefix("page:") }
        #expect(Set(operations.map { $0.access }) == ["page:opl", "page:pop", "page:*", "page:platform", "page:field", "page:offleash"])
        try await apps.withLiveServer(["all"], configure: { $0.readRatePerMinute = 0; $0.writeRatePerMinute = 0 }) { env, port in
            let callers = try await AuthorizationMatrixTests.callers(env)
            let people = callers.people
            /// The session each group admits, and its refused ones.
            let admitted: [String: Session] = [
                "opl": Session(caller: "a moderator", credential: people["opl"]?["moderator"] ?? ""),
                "pop": Session(caller: "an organiser", credential: people["pop"]?["organiser"] ?? ""),
                "*": Session(caller: "a key with read:analytics", credential: callers.keys["offleash"] ?? ""),
                "platform": Session(caller: "a platform admin key", credential: callers.keys["platform"] ?? ""),
                "field": Session(caller: "a manager", credential: people["field"]?["manager"] ?? ""),
                "offleash": Session(caller: "an admin", credential: people["offleash"]?["admin"] ?? ""),
            ]
            let sameAppRefused: [String: Session] = [
                "opl": Session(caller: "an OPL key without moderate:opl", credential: callers.bare["opl"] ?? ""),
                "pop": Session(caller: "a PoP key without read:civics", credential: callers.bare["pop"] ?? ""),
                "*": Session(caller: "a key without read:analytics", credential: callers.bare["offleash"] ?? ""),
                "platform": Session(caller: "a platform key without admin:platform", credential: callers.bare["platform"] ?? ""),
                "field": Session(caller: "a worker", credential: people["field"]?["worker"] ?? ""),
                "offleash": Session(caller: "a walker", credential: people["offleash"]?["walker"] ?? ""),
            ]
            let otherApp = ["opl": "pop", "pop": "field", "*": "field", "platform": "opl", "field": "offleash", "offleash": "field"]
            var failures: [String] = [], requests = 0
            for operation in operations.sorted(by: { ($0.path, $0.method) < ($1.path, $1.method) }) {
                let app = String(operation.access.dropFirst("page:".count))
                guard let mine = admitted[app], let refusedHere = sameAppRefused[app], let other = otherApp[app].flatMap({ admitted[$0] }) else {
                    failures.append("no sessions for \(operation.access)"); continue
                }
                let path = AuthorizationMatrixTests.concrete(operation.path)
                let post = operation.method == "post"
                func expect(_ session: Session, token: Bool, _ ok: (Int) -> Bool, _ what: String) async {
                    let status = await Self.call(port, operation.method.uppercased(), path, session: session.credential, form: post, token: token)
                    requests += 1
                    if !ok(status) { failures.append("\(operation.method.uppercased()) \(operation.path) as \(session.caller)\(post && !token ? " without the form's token" : ""): \(status), expected \(what)") }
                }
                if post { await expect(mine, token: false, { $0 == 403 }, "403") }
                await expect(mine, token: true, { $0 != 401 && $0 != 403 && $0 != 0 && $0 < 500 }, "through")
                await expect(refusedHere, token: true, { $0 == 401 }, "401 (the sign-in form)")
                await expect(other, token: true, { $0 == 401 }, "401 (the sign-in form)")
            }
            print("page matrix: \(operations.count) page operations, \(requests) requests, \(failures.count) wrong")
            #expect(failures.isEmpty, "\(failures.count) answers broke their rule:\n\(failures.joined(separator: "\n"))")
        }
    }

    /// One request with the page session `session` (and, for a form, its token when `token`).
    static func call(_ port: Int, _ method: String, _ path: String, session: String, form: Bool, token: Bool) async -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("\(PageSession.cookieName)=\(session)", forHTTPHeaderField: "Cookie")
        if form {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data((token ? "csrf=\(PageForms.token(session: session))" : "").utf8)
        }
        return ((try? await client.data(for: request))?.1 as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// A client that keeps no cookies: the shared one stores the sign-in pages' `muster_form` and
    /// sends it instead of the session each request names.
    static let client: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration)
    }()
}
