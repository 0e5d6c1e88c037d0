import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAnalytics
import MusterEvents
import MusterOPL
import MusterPlatform
import MusterRuntime
import NIOCore
import Testing

/// Requests that once took a whole process down, and the answers they get now. Each ends by
/// asking `/health`: the process is still there.
@Suite("Requests that once crashed the process")
struct HostileRequestTests {
    /// Polling with the current hash until the key's quota runs out: every answer is a 304 or a
    /// 429, never a dead process (the fast path took two tokens a 304 and trapped when the
    /// second take failed).
    @Test func pollingWithTheCurrentHashPastTheRateLimit() async throws {
        try await withTestApp(["query"], live: true, configure: { $0.readRatePerMinute = 40 }) { app in
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

    /// RFC 3339 fractions of any length (Python writes 6 digits, Java 9) in every place a client
    /// sends a time: `sent_at`, `created_at`, a breadcrumb's `timestamp`, `since=` of a query.
    @Test func timestampsWithLongFractionsEverywhereAClientSendsOne() async throws {
        try await withTestApp(["collector", "query"]) { app in
            let key = try await app.key(app: "offleash", CollectorTests.writer)
            let now = String(Timestamp.string(millis: Wire.now()).dropLast()) // without the Z
            let micro = now + "123Z", nano = now + "123456Z"
            let events = Wire.batch(sentAt: micro, [Wire.screenView("e-1", at: nano), Wire.funnel("e-2", step: "search", at: micro)])
            let answer = try await app.request("/api/analytics/events", method: .post, key: key, json: events)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.json["accepted"] as? Int == 2, "\(answer.text)")
            let crash = Wire.crashes(sentAt: nano, [Wire.crash("c-1", at: micro)])
            #expect(try await app.request("/api/analytics/crashes", method: .post, key: key, json: crash).status == .ok)
            for since in ["2026-11-21T14:00:05.123456Z", "2026-11-21T14:00:05.123456789%2B01:00", "2026-11-21T14:00:05.1234Z"] {
                let funnel = try await app.request("/api/analytics/funnel?funnel=booking&steps=search,book&since=\(since)", key: key)
                #expect(funnel.status == .ok, "\(since): \(funnel.text)")
            }
            let badDay = try await app.request("/api/analytics/funnel?funnel=booking&steps=search,book&since=2026-02-31", key: key)
            #expect(badDay.status == .badRequest)
            #expect(try await app.request("/health").status == .ok)
        }
    }

    /// Text stored before control characters were refused never reaches a page raw.
    @Test func pagesShowStoredControlCharactersAsReplacementCharacters() {
        #expect(escapeHTML("a\u{0}b\r\nc\u{1B}[31m<\u{85}>\td") == "a\u{FFFD}b\nc\u{FFFD}[31m&lt;\u{FFFD}&gt;\td")
    }

    /// A path that exists answers a wrong method with 405 and `Allow`; an unknown path is 404.
    @Test func wrongMethodIs405WithAllow() async throws {
        try await withTestApp { app in
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
