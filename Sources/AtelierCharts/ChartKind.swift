/// The charts `atl-export --format svg|png` draws.
public enum ChartKind: String, Sendable, CaseIterable {
    /// Vertical bars, one per group, in the order given.
    case bars
    /// Shares of the whole as a ring, with a legend of labels and percentages.
    case donut
    /// A time series: points joined by a line (by month, by weekday).
    case line
    /// Horizontal bars, largest first (one garment each, in its own colour).
    case ranking

    /// The chart a grouping gets when none is asked for.
    public static func `default`(for dimension: String) -> ChartKind {
        switch dimension {
        case "month": return .line
        case "garment": return .ranking
        default: return .bars
        }
    }
}
