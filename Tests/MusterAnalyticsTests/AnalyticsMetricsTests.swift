import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import NIOFoundationEssentialsCompat
import Testing

/// Every dashboard figure, on a generated data set sent through the real routes, against the
/// same figure computed here directly from what was generated.
@Suite("Analytics metrics against hand-computed values")
struct AnalyticsMetricsTests {
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    }

    struct DataSet {
        var events: [String] = []
        var crashes: [String] = []
        /// person → furthest funnel step reached (0…4), segment, version.
        var journeys: [(reached: Int, segment: String, version: String)] = []
        var tti: [String: [Int]] = [:]
        var requests: [String: (total: Int, failed: Int)] = [:]
        var views: [String: [Int]] = [:]
        var sessions = Set<String>()
        var crashedSessions = Set<String>()
        var crashesByType: [String: Int] = [:]
    }

    static func generate() -> DataSet {
        var rng = Rng(state: 0x9E37_79B9_7F4A_7C15)
        var data = DataSet()
        let start = Wire.now() - 36 * 3_600_000
        let steps = ["login", "services", "location", "booking_start", "booking_complete"]
        for person in 0..<120 {
            let session = "sess-\(person)"
            let version = person % 3 == 0 ? "2.2.0" : "2.3.0"
            let segment = person % 4 == 0 ? "returning" : "new"
            let base = start + Int64(person) * 600_000
            var minute: Int64 = 0
            func at() -> String { minute += 1; return Timestamp.string(millis: base + minute * 1000) }
            let context = #"{"app_version":"\#(version)","os_name":"iOS","os_version":"17.5","device_model":"iPhone15,2","anonymous_id":"p-\#(person)"}"#
            var events: [String] = []
            data.sessions.insert(session)
            let reached = rng.int(0...4)
            data.journeys.append((reached, segment, version))
            for k in 0...reached {
                let step = k == 0 && person % 5 == 0 ? "register" : steps[k]
                events.append(Wire.funnel("f-\(person)-\(k)", step: step, segment: segment, session: session, at: at()))
            }
            for screen in ["Services", "LocationSelection"] {
                let ms = rng.int(20...2000), source = rng.int(0...2) == 0 ? "cache" : "network"
                data.tti["\(screen)|\(source)", default: []].append(ms)
                events.append(Wire.tti("t-\(person)-\(screen)", screen: screen, ms: ms, source: source, session: session, at: at()))
                let onScreen = rng.int(500...60_000)
                data.views[screen, default: []].append(onScreen)
                events.append(Wire.screenView("v-\(person)-\(screen)", screen: screen, session: session, at: at(), duration: onScreen))
            }
            for call in 0..<rng.int(1...6) {
                let endpoint = call % 2 == 0 ? "/services" : "/bookings/\(1000 + call)"
                let method = call % 2 == 0 ? "GET" : "POST"
                let key = call % 2 == 0 ? "GET /services" : "POST /bookings/{id}"
                let status = rng.int(0...9) == 0 ? 503 : 200
                data.requests[key, default: (0, 0)].total += 1
                if status == 503 { data.requests[key, default: (0, 0)].failed += 1 }
                events.append(Wire.apiCall("a-\(person)-\(call)", endpoint: endpoint, method: method, status: status, session: session, at: at()))
            }
            if person % 9 == 0 {
                let type = person % 2 == 0 ? "EXC_BAD_ACCESS" : "SIGABRT"
                data.crashedSessions.insert(session)
                data.crashesByType[type, default: 0] += 1
                data.crashes.append(Wire.crash("c-\(person)", session: session, type: type, version: version, at: at()))
            }
            // Sent now, as an app that was offline would: the events keep their times across the day and a half.
            data.events.append(Wire.batch(sentAt: Timestamp.string(millis: Wire.now()), context: context, events))
        }
        return data
    }

    static func percentile(_ values: [Int], _ p: Double) -> Int {
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    @Test func everyFigureMatchesTheGeneratedData() async throws {
        let data = Self.generate()
        try await apps.withTestApp(["collector", "query"]) { app in
            let key = try await app.key(app: "offleash", CollectorTests.writer)
            for batch in data.events {
                let response = try await app.request("/api/analytics/events", method: .post, key: key, json: batch)
                #expect(response.status == .ok && response.json["rejected"] as? [Any] != nil && (response.json["rejected"] as? [Any])?.isEmpty == true,
                        "\(response.text.prefix(300))")
            }
            let crash = try await app.request("/api/analytics/crashes", method: .post, key: key, json: Wire.crashes(data.crashes))
            #expect(crash.json["accepted"] as? Int == data.crashes.count)
            let last = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.lastSeq
            try await app.settled("analytics", at: last)
            // The funnel reads only funnel steps: it settles at the last of those.
            let lastStep = try await app.log.jetStream.getMessage(stream: app.log.configuration.eventsStream,
                                                                 lastBySubject: "events.analytics.funnel.>").sequence
            try await app.settled("funnel", at: lastStep)

            // Funnel: people reaching step k = people whose journey went at least that far.
            let funnel = try await app.request("/api/analytics/funnel", key: key).json
            let steps = try #require(funnel["steps"] as? [[String: Any]])
            let expected = (0...4).map { k in data.journeys.filter { $0.reached >= k }.count }
            #expect(steps.map { $0["people"] as? Int } == expected)
            #expect(steps.map { $0["drop_off"] as? Int } == [0] + (1...4).map { expected[$0 - 1] - expected[$0] })
            let conversion = try #require(steps[2]["conversion"] as? Double)
            #expect(abs(conversion - Double(expected[2]) / Double(expected[1])) < 1e-9)
            let segments = try #require(funnel["by_segment"] as? [[String: Any]])
            let returning = try #require(segments.first { $0["key"] as? String == "returning" }?["steps"] as? [[String: Any]])
            #expect(returning.map { $0["people"] as? Int } == (0...4).map { k in data.journeys.filter { $0.segment == "returning" && $0.reached >= k }.count })
            let versions = try #require(funnel["by_app_version"] as? [[String: Any]])
            #expect(versions.map { $0["key"] as? String } == ["2.2.0", "2.3.0"])

            // Time to interactive: HdrHistogram at two significant digits, so within 1 %.
            let tti = try #require(try JSONSerialization.jsonObject(with: Data(buffer: try await app.request("/api/analytics/tti", key: key).body)) as? [[String: Any]])
            #expect(tti.count == data.tti.count)
            for row in tti {
                let values = try #require(data.tti["\(row["screen"] as! String)|\(row["source"] as! String)"])
                #expect(row["count"] as? Int == values.count)
                for (p, field) in [(50.0, "p50_ms"), (90.0, "p90_ms"), (99.0, "p99_ms")] {
                    let exact = Self.percentile(values, p), got = try #require(row[field] as? Int)
                    #expect(abs(got - exact) <= max(1, exact / 100 + 1), "\(row["screen"]!) \(row["source"]!) \(field): \(got) vs \(exact)")
                }
            }

            // Screen views and time on screen.
            let screens = try #require(try JSONSerialization.jsonObject(with: Data(buffer: try await app.request("/api/analytics/screens", key: key).body)) as? [[String: Any]])
            for row in screens {
                let values = try #require(data.views[row["screen"] as! String])
                #expect(row["views"] as? Int == values.count)
                #expect(row["average_time_on_screen_ms"] as? Int == values.reduce(0, +) / values.count)
            }

            // Error rate per endpoint: exact.
            let errors = try await app.request("/api/analytics/errors", key: key).json
            let endpoints = try #require(errors["endpoints"] as? [[String: Any]])
            #expect(endpoints.count == data.requests.count)
            for row in endpoints {
                let counts = try #require(data.requests[row["endpoint"] as! String])
                #expect(row["requests"] as? Int == counts.total && row["failures"] as? Int == counts.failed)
                #expect(abs((row["error_rate"] as? Double ?? -1) - Double(counts.failed) / Double(counts.total)) < 1e-9)
            }
            let hourly = try #require(errors["hourly"] as? [[String: Any]])
            #expect(hourly.reduce(0) { $0 + ($1["requests"] as? Int ?? 0) } == data.requests.values.reduce(0) { $0 + $1.total })

            // Crashes: groups by type (one top frame each), crash-free sessions exact.
            let crashes = try await app.request("/api/analytics/crash-groups", key: key).json
            let groups = try #require(crashes["groups"] as? [[String: Any]])
            #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0["exception_type"] as! String, $0["count"] as! Int) }) == data.crashesByType)
            #expect(crashes["sessions"] as? Int == data.sessions.count)
            #expect(crashes["crashed_sessions"] as? Int == data.crashedSessions.count)
            let rate = try #require(crashes["crash_free_rate"] as? Double)
            #expect(abs(rate - (1 - Double(data.crashedSessions.count) / Double(data.sessions.count))) < 1e-9)
            let fingerprint = try #require(groups.first?["fingerprint"] as? String)
            let detail = try await app.request("/api/analytics/crash-groups/\(fingerprint)", key: key)
            #expect(detail.status == .ok && (detail.json["recent"] as? [Any])?.isEmpty == false)
            #expect(try await app.request("/api/analytics/crash-groups/fp_0000000000000000", key: key).status == .notFound)
        }
    }
}
