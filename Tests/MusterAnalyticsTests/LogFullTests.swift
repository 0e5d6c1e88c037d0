import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterRuntime
import MusterTesting
import Testing

/// A full log: the event stream's byte limit (MUSTER_LOG_MAX_BYTES) is reached under the
/// heaviest writer, the collector. Writes answer 503 with the reason and Retry-After, /ready says
/// why, nothing acknowledged is lost, and once there is room again writes go through by
/// themselves, without a restart.
@Suite("A full log refuses writes, loses nothing, and comes back")
struct LogFullTests {
    @Test func aFullLogRefusesWithTheReasonKeepsEverythingAndTakesWritesOnceThereIsRoom() async throws {
        try await apps.withTestApp(["collector"], configure: { $0.logMaxBytes = 256 * 1024 }) { app in
            let key = try await app.key(app: "offleash", CollectorTests.writer)
            var acknowledged: [String] = []
            var refused: (body: String, response: TestResponse)?
            for batch in 0 ..< 200 where refused == nil {
                let ids = (0 ..< 50).map { "full-\(batch)-\($0)" }
                let body = Wire.batch(ids.map { Wire.screenView($0) })
                let response = try await app.request("/api/analytics/events", method: .post, key: key, json: body)
                if response.status == .ok {
                    acknowledged += ids
                } else {
                    refused = (body, response)
                }
            }
            let (body, response) = try #require(refused, "the log never filled (\(acknowledged.count) events stored)")
            #expect(response.status == .serviceUnavailable, "\(response.status)")
            #expect(response.headers[.retryAfter] == "60")
            #expect(response.errorMessage.contains("the event log is full"), "\(response.errorMessage)")
            #expect(acknowledged.count >= 100, "the stream held some before it filled: \(acknowledged.count)")

            // /ready says why; the availability the alert reads (muster_log_full) is set.
            let ready = try await app.request("/ready")
            #expect(ready.status == .serviceUnavailable && ready.text.contains("the log is full"), "\(ready.text)")
            #expect(app.log.availability.snapshot.full)
            #expect(app.log.availability.unreachableFor == .zero, "a full log is not an unreachable one: no hopping between servers")

            // Every acknowledged event is there.
            let stored = Set(try await app.log.rawMessages(stream: app.log.configuration.eventsStream).compactMap { message -> String? in
                guard message.subject.hasPrefix("events.analytics."),
                      let object = try? JSONSerialization.jsonObject(with: Data(message.text.utf8)) as? [String: Any],
                      let data = object["data"] as? [String: Any] else { return nil }
                return data["eventId"] as? String ?? data["id"] as? String
            })
            let missing = acknowledged.filter { !stored.contains($0) }
            #expect(missing.isEmpty, "\(missing.count) acknowledged events are missing, e.g. \(missing.prefix(3))")

            // Operators make room (a higher limit, as a service restarted with a larger
            // MUSTER_LOG_MAX_BYTES sets it); this process, untouched, takes writes again.
            var roomier = app.log.configuration
            roomier.maxBytes = 64 * 1024 * 1024
            try await EventLog(jetStream: app.log.jetStream, catalog: app.log.catalog, configuration: roomier, source: "operator").bootstrap()
            let again = try await app.request("/api/analytics/events", method: .post, key: key, json: body)
            #expect(again.status == .ok, "\(again.text)")
            try await eventually("ready again") { try await app.request("/ready").status == .ok }
            #expect(!app.log.availability.snapshot.full)
        }
    }
}
