import HTTPTypes
import HummingbirdTesting
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import Testing

/// Requests that once took a whole process down, and the answers they get now. Each ends by
/// asking `/health`: the process is still there.
@Suite("Analytics requests that once crashed the process")
struct AnalyticsHostileRequestTests {
    /// RFC 3339 fractions of any length (Python writes 6 digits, Java 9) in every place a client
    /// sends a time: `sent_at`, `created_at`, a breadcrumb's `timestamp`, `since=` of a query.
    @Test func timestampsWithLongFractionsEverywhereAClientSendsOne() async throws {
        try await apps.withTestApp(["collector", "query"]) { app in
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
}
