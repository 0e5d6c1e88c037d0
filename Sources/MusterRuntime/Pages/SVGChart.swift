import Foundation

/// Charts drawn on the server as inline SVG: no scripts, no external library, readable without
/// JavaScript and under `default-src 'none'`. Every label is escaped.
package enum SVGChart {
    package struct Bar: Sendable {
        package var label: String
        package var value: Double
        package var caption: String
        package init(label: String, value: Double, caption: String) {
            self.label = label
            self.value = value
            self.caption = caption
        }
    }

    static let palette = ["#3867d6", "#20bf6b", "#f7b731", "#eb3b5a", "#8854d0", "#0fb9b1"]

    static func number(_ v: Double) -> String { String(format: "%.1f", v) }

    /// Horizontal bars, one per item, longest = `max` (or the largest value).
    package static func bars(_ bars: [Bar], title: String, max: Double? = nil, color: String = "#3867d6") -> String {
        let width = 720.0, labelWidth = 190.0, row = 30.0
        let top = bars.map(\.value).max() ?? 0
        let scale = (max ?? top) > 0 ? (width - labelWidth - 150) / (max ?? top) : 0
        var svg = "<svg class=\"chart\" role=\"img\" aria-label=\"\(escapeHTML(title))\" viewBox=\"0 0 \(Int(width)) \(Int(row * Double(bars.count) + 10))\" width=\"\(Int(width))\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (i, bar) in bars.enumerated() {
            let y = Double(i) * row + 5
            svg += "<text x=\"0\" y=\"\(number(y + 18))\" font-size=\"13\">\(escapeHTML(bar.label.prefix(28)))</text>"
            svg += "<rect class=\"bar\" x=\"\(number(labelWidth))\" y=\"\(number(y + 4))\" width=\"\(number(Swift.max(bar.value * scale, 1)))\" height=\"20\" fill=\"\(color)\"><title>\(escapeHTML(bar.label)): \(escapeHTML(bar.caption))</title></rect>"
            svg += "<text x=\"\(number(labelWidth + Swift.max(bar.value * scale, 1) + 6))\" y=\"\(number(y + 18))\" font-size=\"12\">\(escapeHTML(bar.caption))</text>"
        }
        return svg + "</svg>"
    }

    /// Groups of vertical bars (one group per label, one bar per series), with a legend.
    package static func groupedBars(labels: [String], series: [(name: String, values: [Double])], title: String, unit: String) -> String {
        let height = 260.0, bottom = 70.0, left = 50.0
        let groupWidth = Swift.max(60.0, Double(series.count) * 18 + 16)
        let width = left + groupWidth * Double(labels.count) + 20
        let top = series.flatMap(\.values).max() ?? 0
        let scale = top > 0 ? (height - bottom - 20) / top : 0
        var svg = "<svg class=\"chart\" role=\"img\" aria-label=\"\(escapeHTML(title))\" viewBox=\"0 0 \(Int(width)) \(Int(height + 20))\" width=\"\(Int(width))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += axis(left: left, top: 20, bottom: height - bottom, max: top, unit: unit, width: width)
        for (g, label) in labels.enumerated() {
            let x0 = left + Double(g) * groupWidth + 8
            for (s, serie) in series.enumerated() {
                let v = serie.values[g]
                let h = Swift.max(v * scale, 0.5)
                svg += "<rect class=\"bar\" x=\"\(number(x0 + Double(s) * 18))\" y=\"\(number(height - bottom - h))\" width=\"15\" height=\"\(number(h))\" fill=\"\(palette[s % palette.count])\"><title>\(escapeHTML(label)) \(escapeHTML(serie.name)): \(Int(v)) \(escapeHTML(unit))</title></rect>"
            }
            svg += "<text x=\"\(number(x0))\" y=\"\(number(height - bottom + 14))\" font-size=\"11\" transform=\"rotate(25 \(number(x0)) \(number(height - bottom + 14)))\">\(escapeHTML(label.prefix(24)))</text>"
        }
        for (s, serie) in series.enumerated() {
            let x = left + Double(s) * 80
            svg += "<rect x=\"\(number(x))\" y=\"\(number(height + 4))\" width=\"10\" height=\"10\" fill=\"\(palette[s % palette.count])\"/><text x=\"\(number(x + 14))\" y=\"\(number(height + 13))\" font-size=\"11\">\(escapeHTML(serie.name))</text>"
        }
        return svg + "</svg>"
    }

    /// A line over time (x: index of `points`), with marks: shaded spans from raise to resolve.
    package static func line(points: [(label: String, value: Double)], marks: [(from: Int, to: Int, title: String)], title: String,
                            unit: String, max: Double? = nil) -> String {
        let width = 760.0, height = 240.0, left = 50.0, bottom = 40.0
        let top = Swift.max(max ?? (points.map(\.value).max() ?? 0), 0.0001)
        let step = points.count > 1 ? (width - left - 10) / Double(points.count - 1) : 0
        func x(_ i: Int) -> Double { left + Double(i) * step }
        func y(_ v: Double) -> Double { height - bottom - v / top * (height - bottom - 20) }
        var svg = "<svg class=\"chart\" role=\"img\" aria-label=\"\(escapeHTML(title))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += axis(left: left, top: 20, bottom: height - bottom, max: top, unit: unit, width: width)
        for mark in marks {
            let from = x(mark.from), to = Swift.max(x(mark.to), from + 3)
            svg += "<rect class=\"alert-mark\" x=\"\(number(from))\" y=\"20\" width=\"\(number(to - from))\" height=\"\(number(height - bottom - 20))\" fill=\"#eb3b5a\" fill-opacity=\"0.18\" stroke=\"#eb3b5a\"><title>\(escapeHTML(mark.title))</title></rect>"
        }
        if !points.isEmpty {
            let path = points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(number(x($0.offset))),\(number(y($0.element.value)))" }.joined(separator: " ")
            svg += "<path class=\"series\" d=\"\(path)\" fill=\"none\" stroke=\"#3867d6\" stroke-width=\"1.5\"/>"
        }
        let labelEvery = Swift.max(1, points.count / 6)
        for (i, point) in points.enumerated() where i % labelEvery == 0 {
            // The last label would run off the right edge centred on its point.
            let anchor = i == 0 ? "start" : (i + labelEvery >= points.count ? "end" : "middle")
            svg += "<text x=\"\(number(x(i)))\" y=\"\(number(height - bottom + 16))\" font-size=\"11\" text-anchor=\"\(anchor)\">\(escapeHTML(point.label))</text>"
        }
        return svg + "</svg>"
    }

    static func axis(left: Double, top: Double, bottom: Double, max: Double, unit: String, width: Double) -> String {
        var svg = "<line x1=\"\(number(left))\" y1=\"\(number(bottom))\" x2=\"\(number(width - 10))\" y2=\"\(number(bottom))\" stroke=\"#999\"/>"
        for tick in 0...4 {
            let v = max * Double(tick) / 4
            let y = bottom - (bottom - top) * Double(tick) / 4
            svg += "<text x=\"\(number(left - 6))\" y=\"\(number(y + 4))\" font-size=\"10\" text-anchor=\"end\">\(escapeHTML(format(v, unit)))</text>"
            if tick > 0 { svg += "<line x1=\"\(number(left))\" y1=\"\(number(y))\" x2=\"\(number(width - 10))\" y2=\"\(number(y))\" stroke=\"#eee\"/>" }
        }
        return svg
    }

    static func format(_ v: Double, _ unit: String) -> String {
        unit == "%" ? "\(number(v * 100))%" : "\(Int(v.rounded()))\(unit.isEmpty ? "" : " " + unit)"
    }
}
