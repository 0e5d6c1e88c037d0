import Foundation

/// One line of a CSV export (PoP's newsletter, the field app's timesheet): RFC 4180 (every cell quoted, quotes doubled, CRLF line
/// ends, UTF-8), and every cell a spreadsheet would read as a formula neutralised. A cell that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` (OWASP's advice
/// for CSV injection), so `=HYPERLINK(…)` typed as a name stays text when the file is opened.
public enum CSVRow {
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    public static func line(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    static func cell(_ value: String) -> String {
        var text = value
        if let first = text.first, formulaStarts.contains(first) { text = "'" + text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
