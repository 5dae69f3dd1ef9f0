/// The colours of charts: the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008),
/// told apart by readers with any common colour-vision deficiency, in an order whose
/// neighbours also differ in lightness, so that a chart printed in grey still separates them.
/// Every slice and bar also carries its label in text, so no reading depends on colour alone.
public enum Palette {
    public static let colours = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
    /// The one colour of a single series (bars, the line).
    public static let series = "#0072B2"
    public static let text = "#1a1a1a"
    public static let grid = "#d9d9d9"
    public static let axis = "#4d4d4d"
    /// The grey of a donut's folded slice ("31 more"), lighter than any palette colour.
    public static let rest = "#c8c8c8"

    /// The colour of the `index`th slice: the palette in turn, then greys.
    public static func colour(_ index: Int) -> String {
        index < colours.count ? colours[index] : ["#7f7f7f", "#bfbfbf", "#595959", "#a6a6a6"][(index - colours.count) % 4]
    }
}
