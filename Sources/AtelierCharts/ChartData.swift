import AtelierRecords
import Foundation

/// One mark of a chart: a group's label, its value, and the colour it has of its own (a
/// garment's, `#rrggbb`), if any.
public struct ChartPoint: Sendable, Equatable {
    public var label: String
    public var value: Double
    public var colour: String?
    /// The label as the chart writes it for people (`data-label` keeps `label`).
    public var shown: String

    public init(label: String, value: Double, colour: String? = nil, shown: String? = nil) {
        self.label = label
        self.value = value
        self.colour = colour
        self.shown = shown ?? label
    }
}

/// What a chart draws: its points in order, what the values are (`field`), their unit (a
/// currency code for money, else the field's own word), and the grouping they came from.
public struct ChartData: Sendable, Equatable {
    public var points: [ChartPoint]
    /// The stats field charted: wears, garments, value, costPerWear, spent…
    public var field: String
    /// "EUR" for money, nil for counts.
    public var currency: String?
    /// The `by` of the stats records: category, month, garment…
    public var dimension: String
    /// Currencies that were present but left out (a chart has one unit).
    public var otherCurrencies: [String] = []

    public init(points: [ChartPoint], field: String, currency: String? = nil, dimension: String) {
        self.points = points
        self.field = field
        self.currency = currency
        self.dimension = dimension
    }

    /// The axis title: "wears", "cost per wear (EUR)".
    public var axisTitle: String {
        let words = Self.fieldWords[field] ?? field
        return currency.map { "\(words) (\($0))" } ?? words
    }

    static let fieldWords: [String: String] = [
        "wears": "wears", "garments": "garments", "value": "value", "costPerWear": "cost per wear",
        "spent": "spent", "bought": "garments bought", "outfits": "outfits", "versatility": "outfits it is in",
        "daysSinceWorn": "days since worn", "wornShare": "share worn",
    ]

    /// The field a grouping is charted by when none is asked for: garments per group, wears
    /// over time, cost per wear per garment.
    /// Groupings whose labels are the catalog's words (`onePiece`), written as words on the
    /// chart; brands, garments' names and dates are shown as they are.
    static let vocabularyDimensions: Set<String> = ["category", "subcategory", "season", "style", "state", "fabric", "color"]

    public static func defaultField(for dimension: String) -> String {
        switch dimension {
        case "month", "weekday": return "wears"
        case "garment": return "costPerWear"
        default: return "garments"
        }
    }

    /// Months in order with the months between filled at 0 (the stats list only the months
    /// something happened in; a time axis needs every month, evenly spaced). Labels that are not
    /// `YYYY-MM` are kept as they are.
    static func fillingMonths(_ points: [ChartPoint]) -> [ChartPoint] {
        func month(_ label: String) -> Int? {
            let parts = label.split(separator: "-")
            guard parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), (1 ... 12).contains(m) else { return nil }
            return y * 12 + m - 1
        }
        let keyed = points.compactMap { p in month(p.label).map { ($0, p) } }
        guard keyed.count == points.count, let first = keyed.map(\.0).min(), let last = keyed.map(\.0).max(), last - first < 1200 else { return points }
        let byMonth = Dictionary(keyed, uniquingKeysWith: { a, _ in a })
        return (first ... last).map { m in
            byMonth[m] ?? ChartPoint(label: String(format: "%04d-%02d", m / 12, m % 12 + 1), value: 0)
        }
    }

    /// The chart data of `stats` records (`atl-query stats`): one point per group, the total
    /// left out. Money fields (`{"EUR": 12.5}`) are charted in the currency with the largest
    /// sum; a group without the field counts 0. Throws when there is nothing to chart.
    public static func fromStats(_ records: [JSONObject], field requested: String?) throws(ChartError) -> ChartData {
        let groups = records.filter { $0["type"] == "stats" && $0["total"]?.bool != true }
        guard let first = groups.first else { throw .noStats }
        let dimension = first["by"]?.string ?? "group"
        if let other = groups.first(where: { ($0["by"]?.string ?? "group") != dimension }) {
            throw .mixedGroupings(dimension, other["by"]?.string ?? "?")
        }
        let field = requested ?? defaultField(for: dimension)
        // Money: the currency with the largest total.
        var sums: [String: Double] = [:]
        for record in groups {
            for (currency, amount) in record[field]?.object?.entries ?? [] { sums[currency, default: 0] += amount.number ?? 0 }
        }
        let currency = sums.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
        if groups.allSatisfy({ $0[field] == nil }) { throw .noField(field) }
        var points: [ChartPoint] = []
        for record in groups {
            let label = record["group"]?.string ?? record["group"].map { "\($0)" } ?? "?"
            let value: Double
            switch record[field] {
            case .object(let money)?: value = currency.flatMap { money[$0]?.number } ?? 0
            case let number?: 
                guard let n = number.number else { throw .notANumber(field, label) }
                value = n
            case nil: value = 0
            }
            guard value.isFinite else { throw .notANumber(field, label) }
            points.append(ChartPoint(label: label, value: value, colour: record["color"]?.string,
                                     shown: Self.vocabularyDimensions.contains(dimension) ? Wording.spoken(label) : label))
        }
        if dimension == "month" { points = fillingMonths(points) }
        var data = ChartData(points: points, field: field, currency: currency, dimension: dimension)
        data.otherCurrencies = sums.keys.filter { $0 != currency }.sorted()
        return data
    }
}
