import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAnalytics
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting
import Testing

/// The HTML dashboards as a browser draws them: Debian's headless Chromium loads each page from
/// a live server (`scripts/page_check.py` over the DevTools protocol) and reports what it shows.
@Suite("Dashboards in headless Chromium")
struct DashboardPageTests {
    struct Page: Decodable {
        struct Chart: Decodable { var label: String?; var width: Double; var bars: Int; var marks: Int; var lines: Int }
        var url: String
        var status: Int?
        var title: String
        var text: String
        var charts: [Chart]
        var links: [String?]
    }

    static var chromiumAvailable: Bool {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func load(_ urls: [String], key: String?) async throws -> [Page] {
        let arguments = ["python3", "scripts/page_check.py"] + (key.map { ["--header", "X-API-Key: \($0)"] } ?? []) + urls
        let result = try await Repository.run(arguments, within: .seconds(240))
        try #require(result.status == 0, "page_check failed: \(result.error.suffix(2000))")
        return try result.output.split(separator: "\n").map { try JSONDecoder().decode(Page.self, from: Data($0.utf8)) }
    }

    @Test(.enabled(if: chromiumAvailable, "needs Debian's chromium (make test installs it)"))
    func everyDashboardShowsItsData() async throws {
        let data = AnalyticsMetricsTests.generate()
        try await apps.withTestApp(["collector", "notifier", "query"], live: true) { app in
            let key = try await app.key(app: "offleash", CollectorTests.writer)
            for batch in data.events { _ = try await app.request("/api/analytics/events", method: .post, key: key, json: batch) }
            _ = try await app.request("/api/analytics/crashes", method: .post, key: key, json: Wire.crashes(data.crashes))
            let now = Wire.now()
            let spike = (0..<30).map { i in Wire.apiCall("spike-\(i)", status: i < 12 ? 503 : 201, at: Timestamp.string(millis: now - 30_000 + Int64(i) * 500)) }
            let spiked = try await app.request("/api/analytics/events", method: .post, key: key, json: Wire.batch(sentAt: Timestamp.string(millis: now), spike))
            #expect(spiked.json["accepted"] as? Int == 30, "\(spiked.text.prefix(500))")
            try await eventually("the alert recorded") { try await app.log.read(filter: "events.analytics.alert.>").count == 1 }
            let last = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.lastSeq
            try await app.settled("analytics", at: last)

            let port = try #require(app.client.port)
            let base = "http://127.0.0.1:\(port)"
            let fingerprint = try #require((try await app.request("/api/analytics/crash-groups", key: key).json["groups"] as? [[String: Any]])?
                .first?["fingerprint"] as? String)
            let pages = try await load(["/dashboards", "/dashboards/funnel", "/dashboards/tti", "/dashboards/errors", "/dashboards/crashes",
                                        "/dashboards/crashes/\(fingerprint)"].map { base + $0 }, key: key)
            #expect(pages.count == 6)
            #expect(pages.allSatisfy { $0.status == 200 })
            #expect(pages.allSatisfy { page in page.charts.allSatisfy { $0.width > 100 } })
            let (overview, funnel, tti, errors, crashes, detail) = (pages[0], pages[1], pages[2], pages[3], pages[4], pages[5])
            #expect(overview.text.contains("crash-free sessions") && overview.charts.count == 2)
            let expected = (0...4).map { k in data.journeys.filter { $0.reached >= k }.count }
            #expect(funnel.charts.first?.bars == 5)
            #expect(funnel.text.contains("\(expected[0]) people") && funnel.text.contains("booking_complete"))
            #expect(funnel.text.contains("returning") && funnel.text.contains("2.2.0"))
            #expect(tti.charts.first?.bars == data.tti.count * 3)
            #expect(tti.text.contains("LocationSelection") && tti.text.contains("P90"))
            #expect(errors.charts.first?.lines == 1 && errors.charts.first?.marks == 1)
            #expect(errors.text.contains("POST /bookings") && errors.text.contains("GET /services") && errors.text.contains("firing"))
            #expect(crashes.text.contains("EXC_BAD_ACCESS") && crashes.text.contains("SIGABRT"))
            #expect(crashes.links.contains("/dashboards/crashes/\(fingerprint)"))
            #expect(detail.text.contains("BookingView.submit()") && detail.text.contains("Services -> Booking"))

            // Without a key: the sign-in form, not the data.
            let anonymous = try await load([base + "/dashboards/errors"], key: nil)
            #expect(anonymous.first?.status == 401 && anonymous.first?.text.contains("read:analytics") == true)
            #expect(anonymous.first?.text.contains("POST /bookings") == false)
        }
    }
}
