import Foundation

/// One line of a CSV export (PoP's newsletter, the field app's timesheet): RFC 4180 (every cell quoted, quotes doubled, CRLF line
/// ends, UTF-8), and every cell a spreadsheet would read as a formula neutralised. A cell that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` (OWASP's advice
/// for CSV injection), so `=HYPERLINK(…)` typed as a name stays text when the file is opened. So
/// does one that starts with their full-width forms (`＝＋－＠`, which spreadsheets in CJK locales
/// read as the ASCII ones) or with `|` (DDE in older Excel), after any leading spaces.
package enum CSVRow {
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}", "|"]

    package static func line(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    static func cell(_ value: String) -> String {
        var text = value
        if let first = text.first(where: { $0 != " " }), formulaStarts.contains(first) { text = "'" + text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
