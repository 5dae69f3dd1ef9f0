import Foundation

/// Draws `ChartData` as an SVG document: real text (titles, labels and ticks stay text, so they
/// can be read, searched and translated), axes with their unit, the Okabe–Ito palette, and on
/// every mark its label and value (`data-label`, `data-value`) so that a program reading the
/// chart gets the numbers back.
public struct SVGChart: Sendable {
    public var kind: ChartKind
    public var data: ChartData
    public var title: String
    public var width: Int
    public var height: Int
    /// The prefix of the ids of the chart's title and description (`chart-title`), which must be
    /// unique on a page that holds several charts inline.
    public var idPrefix = "chart"
    /// Whether the title is drawn at the top; a page with its own heading leaves it out (the
    /// title stays the chart's accessible name).
    public var drawsTitle = true

    /// Ranking charts show at most this many bars (the largest).
    public static let rankingLimit = 30

    public init(kind: ChartKind, data: ChartData, title: String, width: Int = 800, height: Int = 480) {
        self.kind = kind
        self.data = data
        self.title = title
        self.width = width
        self.height = height
    }

    public func render() throws(ChartError) -> String {
        guard !data.points.isEmpty else { throw .noStats }
        if let negative = data.points.first(where: { $0.value < 0 }) {
            throw .unsuitable("\"\(data.field)\" of \"\(negative.label)\" is negative; a \(kind.rawValue) chart draws amounts from 0")
        }
        var svg = SVGWriter(width: width, height: height, title: title, description: description, idPrefix: idPrefix, drawsTitle: drawsTitle)
        switch kind {
        case .bars: drawColumns(&svg, line: false)
        case .line: drawColumns(&svg, line: true)
        case .ranking: drawRanking(&svg)
        case .donut: try drawDonut(&svg)
        }
        return svg.finish()
    }

    /// Where the plot starts: below the title, or near the top when a page's own heading stands
    /// in for it (no empty band between the heading and the chart).
    var plotTop: Double { drawsTitle ? 60 : 24 }

    /// "wears by category: top 78, bottom 50, …", for screen readers (`<desc>`).
    var description: String {
        let shown = data.points.prefix(12).map { "\($0.shown) \(ChartNumber.format($0.value))" }.joined(separator: ", ")
        return "\(data.axisTitle) by \(data.dimension): \(shown)\(data.points.count > 12 ? ", …" : "")"
    }

    // MARK: columns and lines

    private func drawColumns(_ svg: inout SVGWriter, line: Bool) {
        let points = data.points
        let longest = points.map(\.shown.count).max() ?? 0
        let slanted = points.count > 8 || longest > 10
        let left = 76.0, right = 24.0, top = plotTop
        let bottom = slanted ? min(150, 36 + Double(min(longest, 22)) * 5.2) : 56
        let plotW = Double(width) - left - right, plotH = Double(height) - top - bottom
        let axis = ValueAxis(largest: points.map(\.value).max() ?? 0)
        let y = { (v: Double) in top + plotH - v / axis.maximum * plotH }
        svg.ticks(axis, vertical: true, across: left ... left + plotW, at: y)
        svg.axisTitle(data.axisTitle, x: 18, y: top + plotH / 2)
        svg.line(x1: left, y1: top + plotH, x2: left + plotW, y2: top + plotH, stroke: Palette.axis, className: "baseline")
        let band = plotW / Double(points.count)
        let every = line ? max(1, Int((Double(points.count) / 14).rounded(.up))) : 1
        var path: [(Double, Double)] = []
        svg.open("g", ["class": line ? "series" : "bars"])
        for (i, point) in points.enumerated() {
            let cx = left + (Double(i) + 0.5) * band
            if line {
                path.append((cx, y(point.value)))
            } else {
                let barW = band * 0.7
                svg.rect(x: cx - barW / 2, y: y(point.value), width: barW, height: top + plotH - y(point.value),
                         fill: Palette.series, className: "bar", label: point.label, value: point.value)
                if points.count <= 24 {
                    svg.text(ChartNumber.format(point.value), x: cx, y: y(point.value) - 6, size: 12, anchor: "middle", className: "value")
                }
            }
            guard i % every == 0 else { continue }
            if slanted {
                svg.text(Self.short(point.shown, 22), x: cx, y: top + plotH + 16, size: 12, anchor: "end", className: "label",
                         transform: "rotate(-40 \(SVGWriter.n(cx)) \(SVGWriter.n(top + plotH + 16)))")
            } else {
                svg.text(point.shown, x: cx, y: top + plotH + 22, size: 13, anchor: "middle", className: "label")
            }
        }
        if line {
            svg.polyline(path, stroke: Palette.series)
            for (point, (cx, cy)) in zip(points, path) {
                svg.circle(cx: cx, cy: cy, r: 4, fill: Palette.series, className: "point", label: point.label, value: point.value)
            }
        }
        svg.close("g")
    }

    // MARK: ranking

    private func drawRanking(_ svg: inout SVGWriter) {
        let sorted = data.points.enumerated().sorted { $0.element.value != $1.element.value ? $0.element.value > $1.element.value : $0.offset < $1.offset }
            .map(\.element).prefix(Self.rankingLimit)
        let longest = sorted.map(\.shown.count).max() ?? 0
        let left = min(Double(width) * 0.38, 16 + Double(min(longest, 32)) * 7.2), right = 64.0, top = plotTop, bottom = 52.0
        let plotW = Double(width) - left - right, plotH = Double(height) - top - bottom
        let axis = ValueAxis(largest: sorted.first?.value ?? 0)
        let x = { (v: Double) in left + v / axis.maximum * plotW }
        svg.ticks(axis, vertical: false, across: top ... top + plotH, at: x)
        svg.text(data.axisTitle, x: left + plotW / 2, y: Double(height) - 10, size: 13, anchor: "middle", className: "axis-title")
        svg.line(x1: left, y1: top, x2: left, y2: top + plotH, stroke: Palette.axis, className: "baseline")
        let band = plotH / Double(sorted.count)
        svg.open("g", ["class": "bars"])
        for (i, point) in sorted.enumerated() {
            let cy = top + (Double(i) + 0.5) * band
            let barH = min(band * 0.72, 28)
            let fill = point.colour.flatMap(Self.hexColour) ?? Palette.series
            svg.rect(x: left, y: cy - barH / 2, width: x(point.value) - left, height: barH, fill: fill, className: "bar",
                     label: point.label, value: point.value, stroke: Palette.axis)
            svg.text(Self.short(point.shown, 32), x: left - 8, y: cy + 4, size: 12, anchor: "end", className: "label")
            svg.text(ChartNumber.format(point.value), x: x(point.value) + 6, y: cy + 4, size: 12, anchor: "start", className: "value")
        }
        svg.close("g")
    }

    // MARK: donut

    /// The donut's slices: the largest first, clockwise from twelve o'clock, each in a colour of
    /// its own. When there are more groups than the palette has colours, the smallest are one
    /// grey slice ("31 more"), which names them in `data-others`: forty slices in eight colours and
    /// greys cannot be told apart, and the legend could not list them.
    struct DonutSlice: Equatable {
        var label: String
        var value: Double
        /// The label as the legend writes it.
        var shown: String
        /// The groups folded into this slice (empty for a group of its own).
        var others: [String] = []
    }

    static func donutSlices(_ points: [ChartPoint]) -> [DonutSlice] {
        let indexed: [(offset: Int, point: ChartPoint)] = points.enumerated().map { ($0.offset, $0.element) }
        let ordered: [ChartPoint] = indexed.sorted { a, b in
            a.point.value != b.point.value ? a.point.value > b.point.value : a.offset < b.offset
        }.map { $0.point }
        let limit = Palette.colours.count
        guard ordered.count > limit else { return ordered.map { DonutSlice(label: $0.label, value: $0.value, shown: $0.shown) } }
        let kept = ordered.prefix(limit - 1).map { DonutSlice(label: $0.label, value: $0.value, shown: $0.shown) }
        let rest = ordered.dropFirst(limit - 1)
        let folded = DonutSlice(label: "\(rest.count) more", value: rest.reduce(0.0) { $0 + $1.value }, shown: "\(rest.count) more", others: rest.map { $0.label })
        return kept + [folded]
    }

    private func drawDonut(_ svg: inout SVGWriter) throws(ChartError) {
        let total = data.points.reduce(0) { $0 + $1.value }
        guard total > 0 else { throw .unsuitable("every \"\(data.field)\" is 0: a donut has no shares to draw") }
        let slices = Self.donutSlices(data.points)
        let colours = slices.enumerated().map { $0.element.others.isEmpty ? Palette.colour($0.offset) : Palette.rest }
        let top = plotTop
        let plotH = Double(height) - top - 20
        let r = min(plotH, Double(width) * 0.55) / 2, inner = r * 0.56
        let cx = 24 + r, cy = top + plotH / 2
        var angle = -Double.pi / 2
        svg.open("g", ["class": "slices"])
        for (i, slice) in slices.enumerated() {
            let sweep = slice.value / total * 2 * .pi
            if slice.value > 0 {
                svg.slice(cx: cx, cy: cy, r: r, inner: inner, from: angle, sweep: sweep, fill: colours[i], label: slice.label, value: slice.value, others: slice.others)
            }
            angle += sweep
        }
        svg.close("g")
        svg.text(ChartNumber.format(total), x: cx, y: cy + 2, size: 22, anchor: "middle", className: "total", bold: true)
        svg.text(data.axisTitle, x: cx, y: cy + 22, size: 13, anchor: "middle", className: "axis-title")
        // Legend: a swatch, the label, the value and the share, in the slices' order.
        let legendX = cx + r + 36
        let rows = min(slices.count, Int((plotH - 8) / 22))
        svg.open("g", ["class": "legend"])
        for (i, slice) in slices.prefix(rows).enumerated() {
            let ly = top + 16 + Double(i) * 22
            svg.rect(x: legendX, y: ly - 11, width: 14, height: 14, fill: colours[i], className: "swatch", label: slice.label, value: slice.value)
            let percent = ChartNumber.format(slice.value / total * 100, decimals: 1)
            svg.text("\(Self.short(slice.shown, 28))  \(ChartNumber.format(slice.value)) (\(percent) %)", x: legendX + 22, y: ly + 1, size: 13, anchor: "start", className: "label")
        }
        if rows < slices.count {
            svg.text("and \(slices.count - rows) more", x: legendX + 22, y: top + 16 + Double(rows) * 22, size: 12, anchor: "start", className: "label")
        }
        svg.close("g")
    }

    /// A label cut to `count` characters with an ellipsis.
    static func short(_ label: String, _ count: Int) -> String {
        label.count <= count ? label : String(label.prefix(count - 1)) + "…"
    }

    /// `#rrggbb` when it is one (a garment's colour), else nil.
    static func hexColour(_ text: String) -> String? {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + digits.lowercased()
    }
}
