import Foundation
import MusterRuntime

/// The organisers' civics page, server-rendered with inline SVG charts (as `/dashboards`):
/// everything from the log or the deck files is escaped; the only markup is ours.
enum CivicsPage {
    static func page(_ report: CivicsReport, query: CivicsQuery, today: Int, config: PoPConfig, fixedOrg: Bool) -> PageBody {
        let orgName = query.org.flatMap { config.org($0) }.map { "\($0.name) (\($0.stateName))" } ?? "All organisations"
        var page = HTMLPage(title: "Civics progress — \(orgName)")
        page.raw("<nav aria-label=\"Decks\">")
        let decks = query.org.flatMap { config.org($0)?.decks } ?? Array(config.decks.decks.keys).sorted()
        for deck in decks {
            let title = config.decks.decks[deck]?.title ?? deck
            page.raw("<a href=\"/pop/civics?deck=\(escapeHTML(deck))\(query.org.map { "&amp;org=\(escapeHTML($0))" } ?? "")\">")
            page.text(title.split(separator: "(").first.map(String.init) ?? title)
            page.raw("</a>")
        }
        page.raw("</nav>")
        page.raw("<h1>Civics progress <span class=\"muted\">"); page.text(orgName); page.raw("</span></h1>")

        let orgs = report.orgRows(today: today).filter { query.org == nil || $0.org == query.org }
        for row in orgs {
            figure(&page, "devices studying (\(row.name), \(row.state))", "\(row.devices)")
            figure(&page, "active in the last 7 days", "\(row.activeLast7Days)")
        }
        if !fixedOrg && config.orgs.count > 1 {
            table(&page, ["Organisation", "State", "Devices", "Active, 7 days"], orgs.map { [$0.name, $0.stateName, "\($0.devices)", "\($0.activeLast7Days)"] })
        }
        let deckTitle = config.decks.decks[query.deck]?.title ?? query.deck
        page.raw("<h2>Hardest questions <span class=\"muted\">"); page.text(deckTitle)
        page.raw(" · seen by at least \(query.minDevices) devices</span></h2>")
        let hardest = report.hardest(org: query.org, deck: query.deck, minDevices: query.minDevices, limit: query.limit)
        if hardest.isEmpty { page.raw("<p class=\"muted\">No question has been seen by that many devices yet.</p>") }
        table(&page, ["#", "Question", "Category", "Devices", "Known"],
              hardest.map { ["\($0.id)", $0.question ?? "(text in the app)", $0.category ?? "", "\($0.devices)", percent($0.shareKnown)] })
        page.raw(SVGChart.bars(hardest.map { .init(label: "#\($0.id) \(($0.question ?? "").prefix(50))", value: ($0.shareKnown ?? 0) * 100,
                                                   caption: percent($0.shareKnown)) },
                               title: "Share of devices that know the hardest questions", max: 100, color: "#eb3b5a"))

        page.raw("<h2>Devices by questions known</h2>")
        let known = report.known(org: query.org, deck: query.deck)
        page.raw(SVGChart.bars(known.map { .init(label: "\($0.from)–\($0.to) known", value: Double($0.devices), caption: "\($0.devices) devices") },
                               title: "Devices by questions known"))

        page.raw("<h2>Devices studying per day</h2>")
        let active = report.active(org: query.org, days: query.days, today: today)
        page.raw(SVGChart.line(points: active.map { (label: String($0.date.dropFirst(5)), value: Double($0.devices)) }, marks: [],
                               title: "Devices studying per day", unit: ""))

        page.raw("<h2>Every question</h2>")
        table(&page, ["#", "Question", "Category", "Devices", "Viewed by", "Views", "Known"],
              report.questions(org: query.org, deck: query.deck).map {
                  ["\($0.id)", $0.question ?? "(text in the app)", $0.category ?? "", "\($0.devices)", "\($0.viewers)", "\($0.views)", percent($0.shareKnown)]
              })
        return page.body()
    }

    static func percent(_ v: Double?) -> String { v.map { String(format: "%.0f%%", $0 * 100) } ?? "—" }

    static func figure(_ page: inout HTMLPage, _ label: String, _ value: String) {
        page.raw("<div class=\"figure\"><b>"); page.text(value); page.raw("</b>"); page.text(label); page.raw("</div>")
    }

    static func table(_ page: inout HTMLPage, _ headers: [String], _ rows: [[String]]) {
        page.raw("<table><tr>")
        for h in headers { page.raw("<th>"); page.text(h); page.raw("</th>") }
        page.raw("</tr>")
        for row in rows {
            page.raw("<tr>")
            for cell in row { page.raw("<td>"); page.text(cell); page.raw("</td>") }
            page.raw("</tr>")
        }
        page.raw("</table>")
    }
}
