import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterOPL
import MusterRuntime
import Testing

/// Requests that once took a whole process down, and the answers they get now. Each ends by
/// asking `/health`: the process is still there.
@Suite("OPL requests that once crashed the process")
struct OPLHostileRequestTests {
   /// Polling with the current hash until the key's quota runs out: every answer is a 304 or a
    /// 429, never a dead process (the fast path took two tokens a 304 and trapped when the
    /// second take failed).
    @Test func pollingWithTheCurrentHashPastTheRateLimit() async throws {
        try await apps.withTestApp(["query"], live: true, configure: { $0.readRatePerMinute = 40 }) { app in
            let key = try await app.key([OPLScopes.readMobile])
            try await app.seed([SeededAction()])
            let uri = "/api/mobile/data?lat=44.0805&lng=-103.2310"
            let hash = try #require(try await app.request(uri, key: key).headers[.contentHash])
            var statuses: [HTTPResponse.Status: Int] = [:]
            let started = ContinuousClock.now
            for _ in 0..<80 {
                statuses[try await app.request(uri + "&hash=\(hash)", key: key).status, default: 0] += 1
            }
            #expect(Set(statuses.keys).isSubset(of: [.notModified, .tooManyRequests]), "\(statuses)")
            // One token a 304: 39 left after the first 200, then 429s (a token refills every 1.5 s).
            let refilled = Int((ContinuousClock.now - started) / .milliseconds(1500)) + 1
            #expect((39...(39 + refilled)).contains(statuses[.notModified] ?? 0), "\(statuses), \(refilled) refilled")
            #expect(try await app.request("/health").status == .ok)
        }
    }

    /// A path that exists answers a wrong method with 405 and `Allow`; an unknown path is 404.
    @Test func wrongMethodIs405WithAllow() async throws {
        try await apps.withTestApp { app in
            let post = try await app.request("/api/mobile/data", method: .post, json: "{}")
            #expect(post.status == .methodNotAllowed)
            #expect(post.headers[.allow] == "GET")
            #expect(post.errorMessage.contains("GET"))
            let get = try await app.request("/api/mobile/submit-strike")
            #expect(get.status == .methodNotAllowed && get.headers[.allow] == "POST")
            let decision = try await app.request("/api/moderation/actions/act_0123456789abcdef/approve", method: .put)
            #expect(decision.status == .methodNotAllowed && decision.headers[.allow] == "POST")
            let unknown = try await app.request("/api/nothing-here")
            #expect(unknown.status == .notFound && !unknown.errorMessage.hasPrefix("<no"))
        }
    }
}
