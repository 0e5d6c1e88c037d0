import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterRuntime
import MusterTesting
import NIOCore
import Testing

/// nats-server stops in the middle of writes and comes back. A write answers 2xx only once the
/// log has it; otherwise 503 with `Retry-After`, saying it may have been stored; the retry with
/// the same `Idempotency-Key` (or the same collector batch) leaves each event in the log once.
@Suite("Writes during a log outage")
struct OutageTests {
    static let submission = """
    {"employer": {"name": "Outage Freight"}, "action": {"organization": "Local 9", "actionType": "strike",
     "location": "Rapid City, SD", "startDate": "2026-11-01", "durationDays": 30, "description": "Night shift out"}}
    """

    /// Two screen views in one collector batch, as the OFFLEASH app sends them.
    static func screenViews(sentAt: String) -> String {
        let views = ["outage-1", "outage-2"].map { id in
            #"{"id":"\#(id)","type":"screen_view","created_at":"\#(sentAt)","session_id":"s-1","screen":"Services"}"#
        }
        return #"{"sent_at":"\#(sentAt)","context":{"app_version":"2.3.0","build":"412","os_name":"iOS","os_version":"17.5","#
            + #""device_model":"iPhone15,2","anonymous_id":"inst-1"},"events":[\#(views.joined(separator: ","))]}"#
    }

    @Test func writesDuringAnOutageAre503AndRetriesStoreEachEventOnce() async throws {
        try await apps.withTestApp(["ingest", "collector"]) { app in
            let submitter = try await app.key([OPLScopes.submitStrike])
            let collector = try await app.key(app: "offleash", [AnalyticsScopes.writeEvents])
            let batch = Self.screenViews(sentAt: Timestamp.string(millis: Int64(Date().timeIntervalSince1970 * 1000)))
            func submit(_ idempotencyKey: String) async throws -> TestResponse {
                try await app.request("/api/mobile/submit-strike", method: .post, key: submitter,
                                      headers: [.idempotencyKey: idempotencyKey], json: Self.submission)
            }
            #expect(try await submit("before").status == .created)

            try await app.env.server.halt()
            try await eventually("NATS noticed gone") { !app.env.connection.isConnected }
            let (strike, events) = try await (submit("during"), app.request("/api/analytics/events", method: .post, key: collector, json: batch))
            for response in [strike, events] {
                #expect(response.status == .serviceUnavailable, "\(response.text)")
                #expect(response.headers[.retryAfter] != nil)
                #expect(response.errorMessage.contains("may have been stored"), "\(response.errorMessage)")
            }
            #expect(strike.errorMessage.contains("same Idempotency-Key"))
            #expect(events.errorMessage.contains("same batch"))
            let ready = try await app.request("/ready")
            #expect(ready.status == .serviceUnavailable)
            #expect(!ready.text.contains(#""caughtUp":true"#), "\(ready.text)")

            try await app.env.server.restart()
            try await eventually("NATS back", timeout: .seconds(30)) { app.env.connection.isConnected }
            // The clients retry as told: the same key, the same batch.
            try await eventually("the retry is taken", timeout: .seconds(30)) { try await submit("during").status == .created }
            let retried = try await app.request("/api/analytics/events", method: .post, key: collector, json: batch)
            #expect(retried.status == .ok, "\(retried.text)")

            let submitted = try await app.log.read(filter: "events.opl.action.*.submitted.v1")
            #expect(submitted.count == 2, "one for 'before', one for 'during': \(submitted.map(\.subject))")
            let views = try await app.log.read(filter: "events.analytics.>").compactMap { $0.payload as? ScreenViewed }
            #expect(views.count == 2, "each screen view once")
            try await eventually("ready again", timeout: .seconds(30)) { try await app.request("/ready").status == .ok }
        }
    }
}
