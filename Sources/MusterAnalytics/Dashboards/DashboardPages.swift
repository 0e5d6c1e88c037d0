import Foundation
import MusterEvents
import MusterRuntime

/// The four dashboards and the crash detail: what each shows, laid out by `report.mustache`, with
/// SVG charts drawn from the numbers.
enum DashboardPages {
    typealias Block = ReportView.Block
    typealias Figure = ReportView.Figure
    typealias Table = ReportView.Table

    static func page(_ title: String, app: String, _ blocks: [Block]) -> ReportView {
        ReportView(title: title, subtitle: "app \(app)", blocks: blocks)
    }

    static func percent(_ v: Double?) -> String { v.map { String(format: "%.1f%%", $0 * 100) } ?? "—" }
    static func percent2(_ v: Double?) -> String { v.map { String(format: "%.2f%%", $0 * 100) } ?? "—" }

    static func overview(app: String, funnel: FunnelReport, tti: [AnalyticsReports.TTIRow], errors: AnalyticsReports.Errors,
                         crashes: AnalyticsReports.Crashes) -> ReportView {
        let requests = errors.endpoints.reduce(0) { $0 + $1.requests }, failures = errors.endpoints.reduce(0) { $0 + $1.failures }
        return page("Overview", app: app, [
            .figures([
                Figure("booking conversion", percent(funnel.steps.last?.conversionFromStart)),
                Figure("API error rate", percent(requests == 0 ? nil : Double(failures) / Double(requests))),
                Figure("crash-free sessions", percent2(crashes.crashFreeRate), bad: (crashes.crashFreeRate ?? 1) < 0.995),
                Figure("alerts open", "\(errors.alerts.filter { $0.resolvedAt == nil }.count + crashes.alerts.filter { $0.resolvedAt == nil }.count)"),
            ]),
            .heading("Funnel"), .chart(funnelChart(funnel)),
            .heading("Time to interactive, P90"),
            .chart(SVGChart.bars(tti.map { .init(label: "\($0.screen) · \($0.source)", value: Double($0.p90Ms), caption: "\($0.p90Ms) ms") },
                                 title: "P90 time to interactive")),
        ])
    }

    static func funnelChart(_ report: FunnelReport) -> String {
        SVGChart.bars(report.steps.enumerated().map { i, step in
            .init(label: step.step, value: Double(step.people),
                  caption: i == 0 ? "\(step.people) people" : "\(step.people) · \(percent(step.conversion)) · −\(step.dropOff)")
        }, title: "funnel \(report.funnel)")
    }

    static func funnel(app: String, report: FunnelReport, steps: String, window: String) -> ReportView {
        var blocks: [Block] = [
            .query([.text("steps", "Steps", steps), .text("window_hours", "Conversion window (hours)", window), .hidden("funnel", report.funnel)]),
            .chart(funnelChart(report)),
            .table(Table(["Step", "People", "Conversion from previous", "From start", "Drop-off"],
                         report.steps.map { [$0.step, "\($0.people)", percent($0.conversion), percent($0.conversionFromStart), "\($0.dropOff)"] })),
        ]
        for (title, breakdowns) in [("New vs returning", report.bySegment), ("By app version", report.byAppVersion)] {
            blocks += [.heading(title), .table(Table(["Group"] + report.steps.map(\.step),
                                                     breakdowns.map { b in [b.key] + b.steps.map { "\($0.people) (\(percent($0.conversionFromStart)))" } }))]
        }
        return page("Funnel: \(report.funnel)", app: app, blocks)
    }

    static func tti(app: String, rows: [AnalyticsReports.TTIRow], screens: [AnalyticsReports.ScreenRow]) -> ReportView {
        page("Time to interactive", app: app, [
            .chart(SVGChart.groupedBars(labels: rows.map { "\($0.screen) · \($0.source)" },
                                        series: [("P50", rows.map { Double($0.p50Ms) }), ("P90", rows.map { Double($0.p90Ms) }),
                                                 ("P99", rows.map { Double($0.p99Ms) })],
                                        title: "time to interactive percentiles", unit: "ms")),
            .table(Table(["Screen", "Source", "Loads", "P50 ms", "P90 ms", "P99 ms"],
                         rows.map { [$0.screen, $0.source, "\($0.count)", "\($0.p50Ms)", "\($0.p90Ms)", "\($0.p99Ms)"] })),
            .heading("Screen views"),
            .table(Table(["Screen", "Views", "Timed", "Average time on screen", "Median time on screen"],
                         screens.map { [$0.screen, "\($0.views)", "\($0.timedViews)", $0.averageTimeOnScreenMs.map { "\($0) ms" } ?? "—",
                                        $0.medianTimeOnScreenMs.map { "\($0) ms" } ?? "—"] })),
        ])
    }

    static func errors(app: String, report: AnalyticsReports.Errors) -> ReportView {
        let hours = report.hourly.map(\.hour)
        let marks = report.alerts.map { alert -> (from: Int, to: Int, title: String) in
            let from = hours.lastIndex { $0 <= alert.raisedAt } ?? 0
            let to = alert.resolvedAt.map { r in hours.lastIndex { $0 <= r } ?? from } ?? max(hours.count - 1, from)
            return (from, to, alert.message)
        }
        return page("API errors", app: app, [
            .chart(SVGChart.line(points: report.hourly.map { (String($0.hour.dropFirst(5).prefix(11)).replacingOccurrences(of: "T", with: " "), $0.errorRate) },
                                 marks: marks, title: "error rate per hour", unit: "%")),
            .note("Error rate per hour; shaded: alerts from raised to resolved."),
            .table(Table(["Endpoint", "Requests", "Failures", "Error rate", "Retries", "Errors", "Alert"],
                         report.endpoints.map { e in
                             [e.endpoint, "\(e.requests)", "\(e.failures)", percent(e.errorRate), "\(e.retries)",
                              e.errorTypes.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "), e.alerting ? "firing" : ""]
                         })),
        ] + alerts(report.alerts))
    }

    static func alerts(_ alerts: [AnalyticsReports.AlertRow]) -> [Block] {
        [.heading("Alerts"), .table(Table(["Raised", "Resolved", "Target", "What"],
                                          alerts.reversed().map { [$0.raisedAt, $0.resolvedAt ?? "open", $0.target, $0.message] }))]
    }

    static func crashes(app: String, report: AnalyticsReports.Crashes) -> ReportView {
        page("Crashes", app: app, [
            .figures([
                Figure("crash-free sessions", percent2(report.crashFreeRate), bad: (report.crashFreeRate ?? 1) < 0.995),
                Figure("sessions", "\(report.sessions)"), Figure("sessions with a crash", "\(report.crashedSessions)"),
                Figure("crash groups", "\(report.groups.count)"),
            ]),
            .chart(SVGChart.line(points: report.byDay.map { (String($0.key.dropFirst(5)), 1 - ($0.crashFreeRate ?? 1)) }, marks: [],
                                 title: "crashed sessions per day", unit: "%")),
            .note("Share of sessions with a crash, per day."),
            .table(Table(["Exception", "Reports", "Sessions", "First seen", "Last seen", "Versions", "Top frames"],
                         report.groups.map { g in
                             [g.exceptionType, "\(g.count)", "\(g.sessions)", g.firstSeen, g.lastSeen,
                              g.versions.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", "),
                              g.topFrames.joined(separator: " ← ")]
                         }, links: report.groups.map { "/dashboards/crashes/\($0.fingerprint)" })),
            .heading("Crash-free sessions by version"),
            .table(Table(["Version", "Sessions", "Crashed", "Crash-free"],
                         report.byVersion.map { [$0.key, "\($0.sessions)", "\($0.crashedSessions)", percent2($0.crashFreeRate)] })),
        ] + alerts(report.alerts))
    }

    static func crash(app: String, detail: AnalyticsReports.CrashDetail) -> ReportView {
        var blocks: [Block] = [
            .figures([Figure("reports", "\(detail.group.count)"), Figure("sessions", "\(detail.group.sessions)"),
                      Figure("first seen", detail.group.firstSeen), Figure("last seen", detail.group.lastSeen)]),
        ]
        if let reason = detail.group.reason { blocks.append(.text(reason)) }
        blocks += [
            .note("Fingerprint \(detail.group.fingerprint)"),
            .chart(SVGChart.bars(detail.group.versions.sorted { FunnelReport.versionOrder($0.key, $1.key) }
                .map { .init(label: $0.key, value: Double($0.value), caption: "\($0.value)") }, title: "reports by app version")),
            .table(Table(["Device", "Reports"], detail.devices.sorted { $0.value > $1.value }.map { [$0.key, "\($0.value)"] })),
            .table(Table(["OS", "Reports"], detail.osVersions.sorted { $0.value > $1.value }.map { [$0.key, "\($0.value)"] })),
        ]
        if let latest = detail.recent.first {
            let c = latest.context
            blocks += [
                .heading("Latest report"),
                .text("\(latest.times.occurredAt) · \(c.appVersion) (\(c.build ?? "?")) · \(c.deviceModel) · \(c.osName) \(c.osVersion)"),
                .heading("Stack"),
                .preformatted(latest.frames.enumerated().map { i, f in
                    "\(i)  \(f.inApp ? "*" : " ") \(f.module ?? "?")  \(f.function)\(f.file.map { "  \($0)" } ?? "")\(f.line.map { ":\($0)" } ?? "")"
                }.joined(separator: "\n")),
                .heading("Breadcrumbs"),
                .table(Table(["At", "Category", "Level", "Message"], latest.breadcrumbs.map { [$0.at, $0.category, $0.level ?? "", $0.message] })),
            ]
        }
        return page("Crash: \(detail.group.exceptionType)", app: app, blocks)
    }
}
