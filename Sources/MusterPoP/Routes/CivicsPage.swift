import Foundation
import MusterRuntime

/// The organisers' civics page: what it shows, laid out by `report.mustache`, with SVG charts drawn
/// from the counts. Texts from the log or the deck files are escaped by the template.
enum CivicsPage {
    typealias Table = ReportView.Table

    static func page(_ report: CivicsReport, query: CivicsQuery, today: Int, config: PoPConfig, fixedOrg: Bool) -> ReportView {
        let orgName = query.org.flatMap { config.org($0) }.map { "\($0.name) (\($0.stateName))" } ?? "All organisations"
        let decks = query.org.flatMap { config.org($0)?.decks } ?? Array(config.decks.decks.keys).sorted()
        var blocks: [ReportView.Block] = [
            .choices("Decks", decks.map { deck in
                let title = config.decks.decks[deck]?.title ?? deck
                return PageGroup.Link(title.split(separator: "(").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? title,
                                      "/pop/civics?deck=\(deck)\(query.org.map { "&org=\($0)" } ?? "")")
            }),
        ]
        let orgs = report.orgRows(today: today).filter { query.org == nil || $0.org == query.org }
        blocks.append(.figures(orgs.flatMap { row in
            [ReportView.Figure("devices studying (\(row.name), \(row.state))", "\(row.devices)"),
             ReportView.Figure("active in the last 7 days", "\(row.activeLast7Days)")]
        }))
        if !fixedOrg && config.orgs.count > 1 {
            blocks.append(.table(Table(["Organisation", "State", "Devices", "Active, 7 days"],
                                       orgs.map { [$0.name, $0.stateName, "\($0.devices)", "\($0.activeLast7Days)"] })))
        }
        let deckTitle = config.decks.decks[query.deck]?.title ?? query.deck
        blocks.append(.heading("Hardest questions · \(deckTitle) · seen by at least \(query.minDevices) devices"))
        let hardest = report.hardest(org: query.org, deck: query.deck, minDevices: query.minDevices, limit: query.limit)
        if hardest.isEmpty { blocks.append(.note("No question has been seen by that many devices yet.")) }
        blocks += [
            .table(Table(["#", "Question", "Category", "Devices", "Known"],
                         hardest.map { ["\($0.id)", $0.question ?? "(text in the app)", $0.category ?? "", "\($0.devices)", percent($0.shareKnown)] })),
            .chart(SVGChart.bars(hardest.map { .init(label: "#\($0.id) \(($0.question ?? "").prefix(50))", value: ($0.shareKnown ?? 0) * 100,
                                                     caption: percent($0.shareKnown)) },
                                 title: "Share of devices that know the hardest questions", max: 100, color: "#eb3b5a")),
            .heading("Devices by questions known"),
            .chart(SVGChart.bars(report.known(org: query.org, deck: query.deck).map {
                .init(label: "\($0.from)–\($0.to) known", value: Double($0.devices), caption: "\($0.devices) devices")
            }, title: "Devices by questions known")),
            .heading("Devices studying per day"),
            .chart(SVGChart.line(points: report.active(org: query.org, days: query.days, today: today).map { (label: String($0.date.dropFirst(5)), value: Double($0.devices)) },
                                 marks: [], title: "Devices studying per day", unit: "")),
            .heading("Every question"),
            .table(Table(["#", "Question", "Category", "Devices", "Viewed by", "Views", "Known"],
                         report.questions(org: query.org, deck: query.deck).map {
                             ["\($0.id)", $0.question ?? "(text in the app)", $0.category ?? "", "\($0.devices)", "\($0.viewers)", "\($0.views)", percent($0.shareKnown)]
                         })),
        ]
        return ReportView(title: "Civics progress", subtitle: orgName, blocks: blocks)
    }

    static func percent(_ v: Double?) -> String { v.map { String(format: "%.0f%%", $0 * 100) } ?? "—" }
}
