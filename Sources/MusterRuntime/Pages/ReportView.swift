package import Hummingbird

/// A page of figures, charts and tables (the dashboards, the civics page), as `report.mustache`
/// lays it out: Swift says what is shown, the template how. Every value is text the template
/// escapes; only `chart` is markup, the SVG that `SVGChart` drew from numbers and escaped labels.
package struct ReportView: Sendable {
    package struct Figure: Sendable {
        package let label: String
        package let value: String
        package let bad: Bool

        package init(_ label: String, _ value: String, bad: Bool = false) {
            self.label = label
            self.value = value
            self.bad = bad
        }
    }

    package struct Cell: Sendable {
        package let text: String
        package let link: String?
    }

    package struct Row: Sendable {
        package let cells: [Cell]
    }

    package struct Table: Sendable {
        package let headers: [String]
        package let rows: [Row]

        /// `links[i]`, when given, makes row `i`'s first cell a link.
        package init(_ headers: [String], _ rows: [[String]], links: [String?]? = nil) {
            self.headers = headers
            self.rows = rows.enumerated().map { i, row in
                Row(cells: row.enumerated().map { j, text in Cell(text: text, link: j == 0 ? links?[i] : nil) })
            }
        }
    }

    /// A form that reads the page again with other query parameters (GET: no token).
    package struct Query: Sendable {
        package struct Field: Sendable {
            package let name: String
            package let label: String
            package let value: String
            package let hidden: Bool
        }

        package let fields: [Field]
    }

    /// Links to the same page with another choice (a deck, a day).
    package struct Choices: Sendable {
        package let label: String
        package let items: [PageGroup.Link]
    }

    /// One part of the page; the template shows whichever of its members are set.
    package struct Block: Sendable {
        package var heading: String?
        package var figures: [Figure]?
        package var chart: String?
        package var table: Table?
        package var note: String?
        package var text: String?
        package var preformatted: String?
        package var choices: Choices?
        package var query: Query?

        package static func heading(_ text: String) -> Block { Block(heading: text) }
        package static func figures(_ figures: [Figure]) -> Block { Block(figures: figures) }
        package static func chart(_ svg: String) -> Block { Block(chart: svg) }
        package static func table(_ table: Table) -> Block { Block(table: table) }
        package static func note(_ text: String) -> Block { Block(note: text) }
        package static func text(_ text: String) -> Block { Block(text: text) }
        package static func preformatted(_ text: String) -> Block { Block(preformatted: text) }
        package static func choices(_ label: String, _ links: [PageGroup.Link]) -> Block { Block(choices: Choices(label: label, items: links)) }
        package static func query(_ fields: [Query.Field]) -> Block { Block(query: Query(fields: fields)) }
    }

    package let title: String
    package let subtitle: String?
    package let blocks: [Block]

    package init(title: String, subtitle: String? = nil, blocks: [Block]) {
        self.title = title
        self.subtitle = subtitle
        self.blocks = blocks
    }
}

extension ReportView.Query.Field {
    package static func text(_ name: String, _ label: String, _ value: String) -> Self { Self(name: name, label: label, value: value, hidden: false) }
    package static func hidden(_ name: String, _ value: String) -> Self { Self(name: name, label: "", value: value, hidden: true) }
}

extension PageTemplates {
    /// A report page of `group`.
    package func report(_ report: ReportView, group: PageGroup, request: Request, context: MusterRequestContext) async throws -> Response {
        try await page("report", title: report.title, group: group, request: request, context: context, page: report)
    }
}
