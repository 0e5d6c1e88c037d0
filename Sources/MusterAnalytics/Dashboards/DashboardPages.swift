import Foundation
import MusterEvents
import MusterRuntime

/// The four dashboards and the crash detail, server-rendered with inline SVG charts.
enum DashboardPages {
    static func page(_ title: String, app: String, _ body: (inout HTMLPage) -> Void) -> PageBody {
        var page = HTMLPage(title: "\(title) — \(app)")
        page.raw("<h1>")
        page.text(title)
        page.raw(" <span class=\"muted\">")
        page.text(app)
        page.raw("</span></h1>")
        body(&page)
        return page.body()
    }

    static func percent(_ v: Double?) -> String { v.map { String(format: "%.1f%%", $0 * 100) } ?? "—" }
    static func percent2(_ v: Double?) -> String { v.map { String(format: "%.2f%%", $0 * 100) } ?? "—" }

    static func figure(_ page: inout HTMLPage, _ label: String, _ value: String, bad: Bool = false) {
        page.raw("<div class=\"figure\"><b\(bad ? " class=\"bad\"" : "")>")
        page.text(value)
        page.raw("</b>")
        page.text(label)
        page.raw("</div>")
    }

    static func table(_ page: inout HTMLPage, _ headers: [String], _ rows: [[String]], links: [String?]? = nil) {
        page.raw("<table><tr>")
        for h in headers { page.raw("<th>"); page.text(h); page.raw("</th>") }
        page.raw("</tr>")
        for (i, row) in rows.enumerated() {
            page.raw("<tr>")
            for (j, cell) in row.enumerated() {
                page.raw("<td>")
                if j == 0, let link = links?[i] {
                    page.raw("<a href=\"\(escapeHTML(link))\">"); page.text(cell); page.raw("</a>")
                } else {
                    page.text(cell)
                }
                page.raw("</td>")
            }
            page.raw("</tr>")
        }
        page.raw("</table>")
    }

    static func overview(app: String, funnel: FunnelReport, tti: [AnalyticsReports.TTIRow], errors: AnalyticsReports.Errors,
                         crashes: AnalyticsReports.Crashes) -> PageBody {
        page("Overview", app: app) { page in
            let requests = errors.endpoints.reduce(0) { $0 + $1.requests }, failures = errors.endpoints.reduce(0) { $0 + $1.failures }
            let completed = funnel.steps.last?.conversionFromStart
            figure(&page, "booking conversion", percent(completed))
            figure(&page, "API error rate", percent(requests == 0 ? nil : Double(failures) / Double(requests)))
            figure(&page, "crash-free sessions", percent2(crashes.crashFreeRate), bad: (crashes.crashFreeRate ?? 1) < 0.995)
            figure(&page, "alerts open", "\(errors.alerts.filter { $0.resolvedAt == nil }.count + crashes.alerts.filter { $0.resolvedAt == nil }.count)")
            page.raw("<h2>Funnel</h2>")
            page.raw(funnelChart(funnel))
            page.raw("<h2>Time to interactive, P90</h2>")
            page.raw(SVGChart.bars(tti.map { .init(label: "\($0.screen) · \($0.source)", value: Double($0.p90Ms), caption: "\($0.p90Ms) ms") },
                                   title: "P90 time to interactive"))
        }
    }

    static func funnelChart(_ report: FunnelReport) -> String {
        SVGChart.bars(report.steps.enumerated().map { i, step in
            .init(label: step.step, value: Double(step.people),
                  caption: i == 0 ? "\(step.people) people" : "\(step.people) · \(percent(step.conversion)) · −\(step.dropOff)")
        }, title: "funnel \(report.funnel)")
    }

    static func funnel(app: String, report: FunnelReport, steps: String, window: String) -> PageBody {
        page("Funnel: \(report.funnel)", app: app) { page in
            page.raw("<form method=\"get\"><label>Steps <input type=\"text\" name=\"steps\" value=\"\(escapeHTML(steps))\"></label>")
            page.raw("<label>Conversion window (hours) <input type=\"text\" name=\"window_hours\" value=\"\(escapeHTML(window))\"></label>")
            page.raw("<input type=\"hidden\" name=\"funnel\" value=\"\(escapeHTML(report.funnel))\"><button>Show</button></form>")
            page.raw(funnelChart(report))
            table(&page, ["Step", "People", "Conversion from previous", "From start", "Drop-off"],
                  report.steps.map { [$0.step, "\($0.people)", percent($0.conversion), percent($0.conversionFromStart), "\($0.dropOff)"] })
            for (title, breakdowns) in [("New vs returning", report.bySegment), ("By app version", report.byAppVersion)] {
                page.raw("<h2>"); page.text(title); page.raw("</h2>")
                table(&page, ["Group"] + report.steps.map(\.step),
                      breakdowns.map { b in [b.key] + b.steps.map { "\($0.people) (\(percent($0.conversionFromStart)))" } })
            }
        }
    }

    static func tti(app: String, rows: [AnalyticsReports.TTIRow], screens: [AnalyticsReports.ScreenRow]) -> PageBody {
        page("Time to interactive", app: app) { page in
            page.raw(SVGChart.groupedBars(labels: rows.map { "\($0.screen) · \($0.source)" },
                                          series: [("P50", rows.map { Double($0.p50Ms) }), ("P90", rows.map { Double($0.p90Ms) }),
                                                   ("P99", rows.map { Double($0.p99Ms) })],
                                          title: "time to interactive percentiles", unit: "ms"))
            table(&page, ["Screen", "Source", "Loads", "P50 ms", "P90 ms", "P99 ms"],
                  rows.map { [$0.screen, $0.source, "\($0.count)", "\($0.p50Ms)", "\($0.p90Ms)", "\($0.p99Ms)"] })
            page.raw("<h2>Screen views</h2>")
            table(&page, ["Screen", "Views", "Timed", "Average time on screen", "Median time on screen"],
                  screens.map { [$0.screen, "\($0.views)", "\($0.timedViews)", $0.averageTimeOnScreenMs.map { "\($0) ms" } ?? "—",
                                 $0.medianTimeOnScreenMs.map { "\($0) ms" } ?? "—"] })
        }
    }

    static func errors(app: String, report: AnalyticsReports.Errors) -> PageBody {
        page("API errors", app: app) { page in
            let hours = report.hourly.map(\.hour)
            let marks = report.alerts.map { alert -> (from: Int, to: Int, title: String) in
                let from = hours.lastIndex { $0 <= alert.raisedAt } ?? 0
                let to = alert.resolvedAt.map { r in hours.lastIndex { $0 <= r } ?? from } ?? max(hours.count - 1, from)
                return (from, to, alert.message)
            }
            page.raw(SVGChart.line(points: report.hourly.map { (String($0.hour.dropFirst(5).prefix(11)).replacingOccurrences(of: "T", with: " "), $0.errorRate) },
                                   marks: marks, title: "error rate per hour", unit: "%"))
            page.raw("<p class=\"muted\">Error rate per hour; shaded: alerts from raised to resolved.</p>")
            table(&page, ["Endpoint", "Requests", "Failures", "Error rate", "Retries", "Errors", "Alert"],
                  report.endpoints.map { e in
                      [e.endpoint, "\(e.requests)", "\(e.failures)", percent(e.errorRate), "\(e.retries)",
                       e.errorTypes.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "), e.alerting ? "firing" : ""]
                  })
            alerts(&page, report.alerts)
        }
    }

    static func alerts(_ page: inout HTMLPage, _ alerts: [AnalyticsReports.AlertRow]) {
        page.raw("<h2>Alerts</h2>")
        table(&page, ["Raised", "Resolved", "Target", "What"], alerts.reversed().map { [$0.raisedAt, $0.resolvedAt ?? "open", $0.target, $0.message] })
    }

    static func crashes(app: String, report: AnalyticsReports.Crashes) -> PageBody {
        page("Crashes", app: app) { page in
            figure(&page, "crash-free sessions", percent2(report.crashFreeRate), bad: (report.crashFreeRate ?? 1) < 0.995)
            figure(&page, "sessions", "\(report.sessions)")
            figure(&page, "sessions with a crash", "\(report.crashedSessions)")
            figure(&page, "crash groups", "\(report.groups.count)")
            page.raw(SVGChart.line(points: report.byDay.map { (String($0.key.dropFirst(5)), 1 - ($0.crashFreeRate ?? 1)) }, marks: [],
                                   title: "crashed sessions per day", unit: "%"))
            page.raw("<p class=\"muted\">Share of sessions with a crash, per day.</p>")
            table(&page, ["Exception", "Reports", "Sessions", "First seen", "Last seen", "Versions", "Top frames"],
                  report.groups.map { g in
                      [g.exceptionType, "\(g.count)", "\(g.sessions)", g.firstSeen, g.lastSeen,
                       g.versions.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", "),
                       g.topFrames.joined(separator: " ← ")]
                  }, links: report.groups.map { "/dashboards/crashes/\($0.fingerprint)" })
            page.raw("<h2>Crash-free sessions by version</h2>")
            table(&page, ["Version", "Sessions", "Crashed", "Crash-free"],
                  report.byVersion.map { [$0.key, "\($0.sessions)", "\($0.crashedSessions)", percent2($0.crashFreeRate)] })
            alerts(&page, report.alerts)
        }
    }

    static func crash(app: String, detail: AnalyticsReports.CrashDetail) -> PageBody {
        page("Crash: \(detail.group.exceptionType)", app: app) { page in
            figure(&page, "reports", "\(detail.group.count)")
            figure(&page, "sessions", "\(detail.group.sessions)")
            figure(&page, "first seen", detail.group.firstSeen)
            figure(&page, "last seen", detail.group.lastSeen)
            if let reason = detail.group.reason { page.raw("<p>"); page.text(reason); page.raw("</p>") }
            page.raw("<p class=\"muted\">Fingerprint "); page.text(detail.group.fingerprint); page.raw("</p>")
            page.raw(SVGChart.bars(detail.group.versions.sorted { FunnelReport.versionOrder($0.key, $1.key) }
                .map { .init(label: $0.key, value: Double($0.value), caption: "\($0.value)") }, title: "reports by app version"))
            table(&page, ["Device", "Reports"], detail.devices.sorted { $0.value > $1.value }.map { [$0.key, "\($0.value)"] })
            table(&page, ["OS", "Reports"], detail.osVersions.sorted { $0.value > $1.value }.map { [$0.key, "\($0.value)"] })
            if let latest = detail.recent.first {
                page.raw("<h2>Latest report</h2><p>")
                page.text("\(latest.times.occurredAt) · \(latest.context.appVersion) (\(latest.context.build ?? "?")) · \(latest.context.deviceModel) · \(latest.context.osName) \(latest.context.osVersion)")
                page.raw("</p><h3>Stack</h3><pre>")
                for (i, f) in latest.frames.enumerated() {
                    page.text("\(i)  \(f.inApp ? "*" : " ") \(f.module ?? "?")  \(f.function)\(f.file.map { "  \($0)" } ?? "")\(f.line.map { ":\($0)" } ?? "")\n")
                }
                page.raw("</pre><h3>Breadcrumbs</h3>")
                table(&page, ["At", "Category", "Level", "Message"], latest.breadcrumbs.map { [$0.at, $0.category, $0.level ?? "", $0.message] })
            }
        }
    }
}
