import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import NIOCore
import NIOFoundationEssentialsCompat
import Testing

@Suite("Collector: batches, crashes, redaction, dedup, limits")
struct CollectorTests {
    static let writer = [AnalyticsScopes.writeEvents, AnalyticsScopes.writeCrashes, AnalyticsScopes.read]

    func answer(_ response: TestResponse) throws -> CollectAnswer {
        try JSONDecoder().decode(CollectAnswer.self, from: Data(buffer: response.body))
    }

    func analyticsMessages(_ app: TestApp) async throws -> [StoredMessageText] {
        try await app.log.rawMessages(stream: app.log.configuration.eventsStream).filter { $0.subject.hasPrefix("events.analytics.") }
    }

    @Test func aBatchWithOneBadEventStoresTheRestAndNamesTheBadOne() async throws {
        try await apps.withTestApp(["collector"]) { app in
            let key = try await app.key(app: "offleash", Self.writer)
            let body = Wire.batch([Wire.screenView("e-1"), Wire.tti("e-2", ms: -5), Wire.apiCall("e-3", status: 200),
                                   #"{"id":"e-4","type":"teleport","created_at":"2026-11-21T14:00:00Z","session_id":"s-1"}"#,
                                   #"{"id":"e-5","type":"screen_view","session_id":"s-1"}"#])
            let response = try await app.request("/api/analytics/events", method: .post, key: key, json: body)
            #expect(response.status == .ok)
            let answer = try answer(response)
            #expect(answer.accepted == 2 && answer.duplicates == 0)
            #expect(answer.rejected.map(\.index) == [1, 3, 4])
            #expect(answer.rejected.map(\.id) == ["e-2", "e-4", "e-5"])
            #expect(answer.rejected[0].reason.contains("duration_ms"))
            #expect(answer.rejected[1].reason.contains("type must be one of"))
            #expect(answer.rejected[2].reason.contains("created_at is required"))
            #expect(try await analyticsMessages(app).count == 2)
            let dlq = try await app.log.rawMessages(stream: app.log.configuration.dlqStream)
            #expect(dlq.count == 3)
            #expect(dlq.allSatisfy { $0.subject.hasPrefix("dlq.collector.analytics.rejected.offleash") })
            #expect(dlq.first?.reason?.contains("events[1]") == true)
            #expect(dlq.first?.text.contains(#""id":"e-2""#) == true)
        }
    }

    @Test func aBatchSentTwiceCountsOnce() async throws {
        try await apps.withTestApp(["collector", "query"]) { app in
            let key = try await app.key(app: "offleash", Self.writer)
            let body = Wire.batch((0..<20).map { Wire.screenView("v-\($0)", session: "s-\($0 % 4)") })
            let first = try answer(try await app.request("/api/analytics/events", method: .post, key: key, json: body))
            let again = try answer(try await app.request("/api/analytics/events", method: .post, key: key, json: body))
            #expect(first.accepted == 20 && first.duplicates == 0)
            #expect(again.accepted == 0 && again.duplicates == 20)
            #expect(try await analyticsMessages(app).count == 20)
            // A crash report resent counts once too.
            let crash = Wire.crashes([Wire.crash("c-1")])
            _ = try await app.request("/api/analytics/crashes", method: .post, key: key, json: crash)
            let resent = try answer(try await app.request("/api/analytics/crashes", method: .post, key: key, json: crash))
            #expect(resent.duplicates == 1)
            let info = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream)
            try await app.settled("analytics", at: info.state.lastSeq)
            let screens = try await app.request("/api/analytics/screens", key: key)
            #expect(screens.json.isEmpty) // an array
            let rows = try JSONSerialization.jsonObject(with: Data(buffer: screens.body)) as? [[String: Any]]
            #expect(rows?.first?["views"] as? Int == 20)
            let crashes = try await app.request("/api/analytics/crash-groups", key: key).json
            #expect((crashes["groups"] as? [[String: Any]])?.first?["count"] as? Int == 1)
        }
    }

    @Test func anEmailInACrashsStackFrameNeverReachesTheLog() async throws {
        try await apps.withTestApp(["collector", "query"]) { app in
            let key = try await app.key(app: "offleash", Self.writer)
            let report = Wire.crash("c-pii", function: "UserStore.load(jane.doe@example.com) token=abc123secret")
                .replacingOccurrences(of: #""reason":"boom""#, with: #""reason":"no user +1 (605) 555-0199 at 203.0.113.9""#)
                .replacingOccurrences(of: "Services -> Booking", with: "GET /me?access_token=s3cr3t for jane.doe@example.com")
            let response = try await app.request("/api/analytics/crashes", method: .post, key: key, json: Wire.crashes([report]))
            #expect(try answer(response).accepted == 1)
            // And a bad one, which goes to the DLQ: redacted there too.
            let bad = #"{"id":"c-bad","created_at":"nope","context":{"app_version":"1"},"exception":{"type":"x"},"frames":[{"function":"f(jane.doe@example.com)"}]}"#
            #expect(try answer(try await app.request("/api/analytics/crashes", method: .post, key: key, json: Wire.crashes([bad]))).rejected.count == 1)
            let everything = try await app.log.rawMessages(stream: app.log.configuration.eventsStream)
                + app.log.rawMessages(stream: app.log.configuration.dlqStream)
            let stored = everything.map(\.text).joined(separator: "\n")
            for secret in ["jane.doe@example.com", "555-0199", "203.0.113.9", "abc123secret", "s3cr3t"] {
                #expect(!stored.contains(secret), "\(secret) reached the log")
            }
            #expect(stored.contains("UserStore.load([email]) token=[secret]"))
            #expect(stored.contains("no user [phone] at [ip]"))
            #expect(stored.contains("access_token=[secret] for [email]"))
        }
    }

    @Test func hostileVolumesOfNamesAndDeepNestingNeitherGrowTheFoldNorCrash() async throws {
        try await apps.withTestApp(["collector", "query"]) { app in
            let key = try await app.key(app: "offleash", Self.writer)
            // 1,200 distinct endpoints (letters only, so they are not ids): the fold keeps 1,000 and `(other)`.
            func word(_ n: Int) -> String {
                var n = n, letters = ""
                repeat { letters.append(Character(Unicode.Scalar(UInt8(97 + n % 26)))); n /= 26 } while n > 0
                return letters
            }
            for chunk in 0..<3 {
                let calls = (0..<400).map { i in Wire.apiCall("n-\(chunk)-\(i)", endpoint: "/p/x\(word(chunk * 400 + i))", method: "GET", status: 200) }
                let answer = try answer(try await app.request("/api/analytics/events", method: .post, key: key, json: Wire.batch(calls)))
                #expect(answer.accepted == 400)
            }
            // Nesting 10,000 deep, inside an event and as the whole body: a clear 400, nothing stored, nothing crashes.
            let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            let nested = Wire.batch([#"{"id":"deep","type":"custom","created_at":"2026-11-21T14:00:00Z","session_id":"s","name":"x","properties":{"a":\#(deep)}}"#])
            #expect(try await app.request("/api/analytics/events", method: .post, key: key, json: nested).status == .badRequest)
            #expect(try await app.request("/api/analytics/events", method: .post, key: key, json: deep).status == .badRequest)
            let last = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.lastSeq
            try await app.settled("analytics", at: last)
            let endpoints = try #require(try await app.request("/api/analytics/errors", key: key).json["endpoints"] as? [[String: Any]])
            #expect(endpoints.count == AnalyticsProjection.maxNames + 1)
            #expect(endpoints.first { $0["endpoint"] as? String == AnalyticsProjection.other }?["requests"] as? Int == 200)
        }
    }

    @Test func aDeviceClockHoursOffIsCorrected() async throws {
        try await apps.withTestApp(["collector"]) { app in
            let key = try await app.key(app: "offleash", Self.writer)
            let now = Wire.now()
            // The device thinks it is 3 hours earlier; the event was 10 minutes before sending.
            let sent = now - 3 * 3_600_000
            let body = Wire.batch(sentAt: Timestamp.string(millis: sent), [Wire.screenView("skew-1", at: Timestamp.string(millis: sent - 600_000))])
            #expect(try answer(try await app.request("/api/analytics/events", method: .post, key: key, json: body)).accepted == 1)
            let event = try #require(try await app.log.read(filter: "events.analytics.>").first?.payload as? ScreenViewed)
            let occurred = try #require(Timestamp.millis(event.times.occurredAt))
            let received = try #require(Timestamp.millis(event.times.receivedAt))
            #expect(received - occurred == 600_000)
            #expect(abs(occurred - (now - 600_000)) < 5_000)
            #expect(event.times.createdAt == Timestamp.string(millis: sent - 600_000))
        }
    }

    @Test func malformedOversizedAndHostileBatchesAreRefusedAndStoreNothing() async throws {
        try await apps.withTestApp(["collector"]) { app in
            let key = try await app.key(app: "offleash", Self.writer)
            let readOnly = try await app.key(app: "offleash", [AnalyticsScopes.read])
            let before = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.messages
            func post(_ body: ByteBuffer, key: String? = nil, encoding: String? = nil) async throws -> TestResponse {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let key { headers[.apiKey] = key }
                if let encoding { headers[.contentEncoding] = encoding }
                return try await app.client.execute(uri: "/api/analytics/events", method: .post, headers: headers, body: body)
            }
            let good = Wire.batch([Wire.screenView("g-1")])
            #expect(try await post(ByteBuffer(string: good)).status == .unauthorized)
            #expect(try await post(ByteBuffer(string: good), key: readOnly).status == .forbidden)
            #expect(try await post(ByteBuffer(string: "{not json"), key: key).status == .badRequest)
            #expect(try await post(ByteBuffer(string: #"{"events":[]}"#), key: key).errorMessage.contains("sent_at is required"))
            #expect(try await post(ByteBuffer(string: Wire.batch(sentAt: "yesterday", [Wire.screenView("x")])), key: key).status == .unprocessableContent)
            #expect(try await post(ByteBuffer(string: Wire.batch([])), key: key).status == .unprocessableContent)
            let tooMany = Wire.batch((0..<501).map { Wire.screenView("m-\($0)") })
            let many = try await post(ByteBuffer(string: tooMany), key: key)
            #expect(many.status == .unprocessableContent && many.errorMessage.contains("at most 500"))
            let huge = Wire.batch([Wire.screenView("h-1", screen: String(repeating: "x", count: 1_100_000))])
            #expect(try await post(ByteBuffer(string: huge), key: key).status == .contentTooLarge)
            // A gzip bomb: 1 KB on the wire, 5 MB inflated.
            let bomb = try Wire.gzip(Wire.batch([Wire.screenView("b-1")]) + String(repeating: " ", count: 5_000_000))
            #expect(bomb.readableBytes < 20_000)
            #expect(try await post(bomb, key: key, encoding: "gzip").status == .contentTooLarge)
            #expect(try await post(ByteBuffer(string: "not gzip"), key: key, encoding: "gzip").status == .badRequest)
            #expect(try await post(ByteBuffer(string: good), key: key, encoding: "br").status == .unsupportedMediaType)
            let after = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.messages
            #expect(after == before)
            // And gzip done right is accepted.
            let zipped = try await post(try Wire.gzip(good), key: key, encoding: "gzip")
            let accepted = try answer(zipped).accepted
            #expect(zipped.status == .ok && accepted == 1)
        }
    }
}
