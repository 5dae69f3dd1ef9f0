import AtelierRecords
import Foundation

/// Writes the SVG markup of a chart: the document with its title and description, and the few
/// shapes charts are made of, escaping every text. Coordinates are written with two decimals.
struct SVGWriter {
    private var out: String = ""

    /// `idPrefix` names the title and description elements, unique on a page that holds several
    /// charts inline; `drawsTitle` false leaves the title to the page's own heading.
    init(width: Int, height: Int, title: String, description: String, idPrefix: String = "chart", drawsTitle: Bool = true) {
        let prefix = Self.escape(idPrefix)
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
        out += " role=\"img\" aria-labelledby=\"\(prefix)-title \(prefix)-desc\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n"
        out += "<title id=\"\(prefix)-title\">\(Self.escape(title))</title>\n"
        out += "<desc id=\"\(prefix)-desc\">\(Self.escape(description))</desc>\n"
        out += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>\n"
        if drawsTitle { text(title, x: Double(width) / 2, y: 34, size: 20, anchor: "middle", className: "title", bold: true) }
    }

    mutating func finish() -> String {
        out += "</svg>\n"
        return out
    }

    mutating func open(_ element: String, _ attributes: [String: String]) {
        out += "<\(element)" + attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(Self.escape($0.value))\"" }.joined() + ">\n"
    }

    mutating func close(_ element: String) { out += "</\(element)>\n" }

    mutating func text(_ content: String, x: Double, y: Double, size: Int, anchor: String, className: String,
                       bold: Bool = false, transform: String? = nil) {
        out += "<text class=\"\(className)\" x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\" fill=\"\(Palette.text)\""
        if bold { out += " font-weight=\"bold\"" }
        if let transform { out += " transform=\"\(transform)\"" }
        out += ">\(Self.escape(content))</text>\n"
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, className: String) {
        out += "<line class=\"\(className)\" x1=\"\(Self.n(x1))\" y1=\"\(Self.n(y1))\" x2=\"\(Self.n(x2))\" y2=\"\(Self.n(y2))\" stroke=\"\(stroke)\" stroke-width=\"1\"/>\n"
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, className: String,
                       label: String, value: Double, stroke: String? = nil) {
        out += "<rect class=\"\(className)\" x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(max(0, width)))\" height=\"\(Self.n(max(0, height)))\" fill=\"\(fill)\""
        if let stroke { out += " stroke=\"\(stroke)\" stroke-width=\"0.5\"" }
        out += " data-label=\"\(Self.escape(label))\" data-value=\"\(ChartNumber.format(value))\"><title>\(Self.escape(label)): \(ChartNumber.format(value))</title></rect>\n"
    }

    mutating func circle(cx: Double, cy: Double, r: Double, fill: String, className: String, label: String, value: Double) {
        out += "<circle class=\"\(className)\" cx=\"\(Self.n(cx))\" cy=\"\(Self.n(cy))\" r=\"\(Self.n(r))\" fill=\"\(fill)\" data-label=\"\(Self.escape(label))\" data-value=\"\(ChartNumber.format(value))\"><title>\(Self.escape(label)): \(ChartNumber.format(value))</title></circle>\n"
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String) {
        out += "<polyline class=\"line\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"2.5\" points=\"" + points.map { "\(Self.n($0.0)),\(Self.n($0.1))" }.joined(separator: " ") + "\"/>\n"
    }

    /// One ring segment from angle `from` (radians, clockwise from +x) through `sweep`.
    /// A donut slice; `others` names the groups a folded slice stands for (`data-others`, a
    /// JSON array, and its tooltip).
    mutating func slice(cx: Double, cy: Double, r: Double, inner: Double, from: Double, sweep: Double, fill: String, label: String, value: Double,
                        others: [String] = []) {
        var attributes = "class=\"slice\" fill=\"\(fill)\" stroke=\"#ffffff\" stroke-width=\"1.5\" data-label=\"\(Self.escape(label))\" data-value=\"\(ChartNumber.format(value))\""
        if !others.isEmpty { attributes += " data-others=\"\(Self.escape(JSONWriter.string(.array(others.map { .string($0) }))))\"" }
        let named = others.isEmpty ? "" : " (\(others.joined(separator: ", ")))"
        let tip = "<title>\(Self.escape(label)): \(ChartNumber.format(value))\(Self.escape(named))</title>"
        if sweep >= 2 * .pi - 1e-9 {
            // A whole ring: two circles, since one arc cannot close on itself.
            out += "<path \(attributes) fill-rule=\"evenodd\" d=\"M \(Self.n(cx + r)) \(Self.n(cy)) A \(Self.n(r)) \(Self.n(r)) 0 1 1 \(Self.n(cx - r)) \(Self.n(cy)) A \(Self.n(r)) \(Self.n(r)) 0 1 1 \(Self.n(cx + r)) \(Self.n(cy)) Z M \(Self.n(cx + inner)) \(Self.n(cy)) A \(Self.n(inner)) \(Self.n(inner)) 0 1 0 \(Self.n(cx - inner)) \(Self.n(cy)) A \(Self.n(inner)) \(Self.n(inner)) 0 1 0 \(Self.n(cx + inner)) \(Self.n(cy)) Z\">\(tip)</path>\n"
            return
        }
        let end = from + sweep
        let large = sweep > .pi ? 1 : 0
        let p = { (radius: Double, angle: Double) in "\(Self.n(cx + radius * cos(angle))) \(Self.n(cy + radius * sin(angle)))" }
        out += "<path \(attributes) d=\"M \(p(r, from)) A \(Self.n(r)) \(Self.n(r)) 0 \(large) 1 \(p(r, end)) L \(p(inner, end)) A \(Self.n(inner)) \(Self.n(inner)) 0 \(large) 0 \(p(inner, from)) Z\">\(tip)</path>\n"
    }

    /// The ticks of a value axis: at each, a gridline across the plot (from `across.lowerBound`
    /// to `across.upperBound`) and the tick's label, left of the plot when the axis runs up the
    /// side (`vertical`), below it when it runs along the bottom. `at` places a value.
    mutating func ticks(_ axis: ValueAxis, vertical: Bool, across: ClosedRange<Double>, at: (Double) -> Double) {
        open("g", ["class": "axis"])
        for tick in axis.ticks {
            let p = at(tick), a = across.lowerBound, b = across.upperBound
            let (x1, y1, x2, y2) = vertical ? (a, p, b, p) : (p, a, p, b)
            let (tx, ty, anchor) = vertical ? (a - 8, p + 4, "end") : (p, b + 18, "middle")
            out += "<g class=\"tick\" data-value=\"\(ChartNumber.format(tick, decimals: 6))\">"
            out += "<line x1=\"\(Self.n(x1))\" y1=\"\(Self.n(y1))\" x2=\"\(Self.n(x2))\" y2=\"\(Self.n(y2))\" stroke=\"\(Palette.grid)\" stroke-width=\"1\"/>"
            out += "<text x=\"\(Self.n(tx))\" y=\"\(Self.n(ty))\" font-size=\"12\" text-anchor=\"\(anchor)\" fill=\"\(Palette.axis)\">\(axis.label(tick))</text></g>\n"
        }
        close("g")
    }

    /// The value axis's title, turned to run up the left edge.
    mutating func axisTitle(_ title: String, x: Double, y: Double) {
        text(title, x: x, y: y, size: 13, anchor: "middle", className: "axis-title", transform: "rotate(-90 \(Self.n(x)) \(Self.n(y)))")
    }

    /// A coordinate with at most two decimals.
    static func n(_ value: Double) -> String { ChartNumber.format(value, decimals: 2) }

    static func escape(_ text: String) -> String { Markup.escape(text) }
}

/// Text as XML and HTML take it: the five special characters escaped, and the control
/// characters XML 1.0 does not allow dropped. Charts and the lookbook both write with it.
public enum Markup {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
