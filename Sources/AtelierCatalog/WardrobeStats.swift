import AtelierRecords
import Foundation
import GRDB

/// Wardrobe statistics grouped by one dimension: counts, value, wears, cost per wear, the most
/// and least worn garment, and what has not been worn lately; over the garments' whole lives, or
/// over a window of the wear log (`window`). Computed in SQL so it stays fast on a large catalog.
public struct WardrobeStats {
    public enum Dimension: String, CaseIterable, Sendable {
        case category, subcategory, brand, season, style, color, state
        /// The fabrics of the compositions (a garment of cotton and elastane is in both groups).
        case fabric
        /// One group per garment, with its versatility and days since it was last worn.
        case garment
        /// The wear log by month, with what was bought each month.
        case month
        /// The wear log by day of the week.
        case weekday

        /// The grouping expression over `garments AS g` (and `s`, the season list, for seasons).
        var keySQL: String {
            switch self {
            case .category: return "g.category"
            case .subcategory: return "g.subcategory"
            case .brand: return "g.brand"
            case .season: return "s.value"
            case .fabric: return "json_extract(f.value, '$.fabric')"
            case .style: return "g.style"
            case .color: return "coalesce(g.color_name, g.color)"
            case .state: return "g.state"
            case .garment, .month, .weekday: return "g.id"
            }
        }

        var from: String {
            switch self {
            case .season: return "garments AS g LEFT JOIN json_each(g.seasons) AS s"
            case .fabric: return "garments AS g LEFT JOIN json_each(g.composition) AS f"
            default: return "garments AS g"
            }
        }

        /// The vocabulary of the dimension's values, whose unknown words (kept by the open
        /// ones, subcategories and fabrics) a group marks `known: false`.
        var vocabulary: Vocabulary? {
            switch self {
            case .category: return Domain.category
            case .subcategory: return Domain.subcategory
            case .season: return Domain.season
            case .style: return Domain.style
            case .state: return Domain.state
            case .fabric: return Domain.fabric
            case .brand, .color, .garment, .month, .weekday: return nil
            }
        }
    }

    public var dimension: Dimension
    /// A garment not worn for this many days (or never) counts as unworn.
    public var notWornDays: Int
    public var today: Int
    /// Only garments meeting these conditions are counted (`atl-query stats --where …`).
    public var filters: [FieldFilter]
    /// The days of the wear log counted (`--since`, `--until`); nil for each garment's whole
    /// `wearCount`. With a window, "not worn" is judged on its last day.
    public var window: ClosedRange<Int>?

    public init(by dimension: Dimension, notWornDays: Int = 90, today: Int = ISODate.today(), filters: [FieldFilter] = [], window: ClosedRange<Int>? = nil) {
        self.dimension = dimension
        self.notWornDays = notWornDays
        self.today = today
        self.filters = filters
        self.window = window
    }

    /// A garment's wears, and the last day it was worn, as the window counts them (SQL over
    /// `garments AS g`; the days are `ISODate` text, so they are safe to write in).
    private var wearsSQL: String {
        guard let window else { return "g.wear_count" }
        return "(SELECT count(*) FROM wear_log w WHERE w.garment_id = g.id AND w.date BETWEEN '\(ISODate.formatDay(window.lowerBound))' AND '\(ISODate.formatDay(window.upperBound))')"
    }

    private var lastWornSQL: String {
        guard let window else { return "g.last_worn_on" }
        return "(SELECT max(w.date) FROM wear_log w WHERE w.garment_id = g.id AND w.date <= '\(ISODate.formatDay(window.upperBound))')"
    }

    /// One `stats` record per group, largest first, then the total over all garments counted.
    /// Warnings about the conditions (an unknown field) go to `warn`.
    public func compute(_ reader: CatalogReader, warn: (String) -> Void = { _ in }) throws -> [JSONObject] {
        let db = reader.db
        let asOf = window?.upperBound ?? today
        let cutoff = ISODate.formatDay(asOf - notWornDays)
        let selection = try reader.garmentSelection(filters)
        selection.warnings.forEach(warn)
        if dimension == .month || dimension == .weekday { return try timeline(db, selection: selection) }
        // An archived garment (given away, sold, retired) counts in its group's history, but is
        // not one to wear more: it is left out of the least worn and the not worn.
        let columns = "g.id, g.name, g.color, \(wearsSQL) AS wear_count, \(lastWornSQL) AS last_worn_on, g.price_amount, g.price_currency, g.state = 'archived' AS archived"
        let keyed = "SELECT \(columns), \(dimension.keySQL) AS key FROM \(dimension.from) WHERE \(selection.sql)"
        let all = "SELECT \(columns), NULL AS key FROM garments AS g WHERE \(selection.sql)"
        let outfitsOf = dimension == .garment
            ? Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT garment_id, count(*) AS n FROM outfit_garments GROUP BY garment_id").map { ($0["garment_id"] as String, $0["n"] as Int64) })
            : [:]
        var out: [JSONObject] = []
        for (source, isTotal) in [(keyed, false), (all, true)] {
            let groups = try Row.fetchAll(db, sql: """
                WITH k AS (\(source))
                SELECT key, count(*) AS n, sum(wear_count) AS wears,
                       sum(CASE WHEN NOT archived AND (last_worn_on IS NULL OR last_worn_on < ?) THEN 1 ELSE 0 END) AS unworn
                FROM k GROUP BY key ORDER BY n DESC, key
                """, arguments: StatementArguments(selection.arguments + [cutoff.databaseValue]))
            let values = try Row.fetchAll(db, sql: """
                WITH k AS (\(source))
                SELECT key, price_currency AS currency, sum(price_amount) AS value, sum(wear_count) AS wears
                FROM k WHERE price_amount IS NOT NULL GROUP BY key, price_currency ORDER BY price_currency
                """, arguments: StatementArguments(selection.arguments))
            func extreme(_ direction: String, among: String = "1") throws -> [String?: Row] {
                let rows = try Row.fetchAll(db, sql: """
                    WITH k AS (\(source))
                    SELECT key, id, name, color, wear_count, last_worn_on FROM (
                        SELECT *, row_number() OVER (PARTITION BY key ORDER BY wear_count \(direction), id) AS rank FROM k WHERE \(among))
                    WHERE rank = 1
                    """, arguments: StatementArguments(selection.arguments))
                return Dictionary(rows.map { ($0["key"] as String?, $0) }, uniquingKeysWith: { a, _ in a })
            }
            let most = try extreme("DESC")
            let least = try extreme("ASC", among: "NOT archived")
            let stale = try Row.fetchAll(db, sql: """
                WITH k AS (\(source))
                SELECT key, id, name, last_worn_on FROM (
                    SELECT *, row_number() OVER (PARTITION BY key ORDER BY coalesce(last_worn_on, ''), id) AS rank
                    FROM k WHERE NOT archived AND (last_worn_on IS NULL OR last_worn_on < ?))
                WHERE rank <= 5 ORDER BY key, rank
                """, arguments: StatementArguments(selection.arguments + [cutoff.databaseValue]))
            for group in groups {
                let key: String? = group["key"]
                var record = JSONObject()
                record["type"] = "stats"
                record["by"] = .string(dimension.rawValue)
                if isTotal {
                    record["group"] = "all"
                    record["total"] = true
                } else if dimension == .garment, let id = key {
                    record["group"] = most[key].map { .string($0["name"]) } ?? .string(id)
                    record["garment"] = .string(id)
                    // Its colour, for a chart that draws each garment in its own.
                    if let colour = most[key]?["color"] as String? { record["color"] = .string(colour) }
                } else {
                    record["group"] = .string(key ?? "(none)")
                    if let key, let vocabulary = dimension.vocabulary, !vocabulary.isKnownValue(key) { record["known"] = false }
                }
                if let window {
                    record["since"] = .string(ISODate.formatDay(window.lowerBound))
                    record["until"] = .string(ISODate.formatDay(window.upperBound))
                }
                record["garments"] = .int(group["n"])
                let wears: Int64 = group["wears"] ?? 0
                record["wears"] = .int(wears)
                var value = JSONObject()
                var costPerWear = JSONObject()
                for row in values where (row["key"] as String?) == key {
                    let currency: String = row["currency"] ?? "EUR"
                    let amount: Double = row["value"] ?? 0
                    let pricedWears: Int64 = row["wears"] ?? 0
                    value[currency] = .double(Self.round2(amount))
                    if pricedWears > 0 { costPerWear[currency] = .double(Self.round2(amount / Double(pricedWears))) }
                }
                record["value"] = .object(value)
                record["costPerWear"] = .object(costPerWear)
                if dimension == .garment && !isTotal, let id = key {
                    // A group of one: what the garment itself says, not its own most and least worn.
                    record["versatility"] = .int(outfitsOf[id] ?? 0)
                    if let last = most[key]?["last_worn_on"] as String?, let day = ISODate.parseDay(last) {
                        record["lastWornOn"] = .string(last)
                        record["daysSinceWorn"] = .int(Int64(asOf - day))
                    }
                } else {
                    if let row = most[key] { record["mostWorn"] = Self.summary(row) }
                    if let row = least[key] { record["leastWorn"] = Self.summary(row) }
                }
                let examples = stale.filter { ($0["key"] as String?) == key }.map { Self.summary($0) }
                record["notWorn"] = ["days": .int(Int64(notWornDays)), "count": .int(group["unworn"]), "longest": .array(examples)]
                if isTotal {
                    for (field, value) in try summary(db, counted: all, arguments: selection.arguments, asOf: asOf) { record[field] = value }
                }
                out.append(record)
            }
        }
        return out
    }

    static func summary(_ row: Row) -> JSONValue {
        var o = JSONObject()
        o["id"] = .string(row["id"])
        o["name"] = .string(row["name"])
        if let count: Int64 = row["wear_count"] { o["wearCount"] = .int(count) }
        if let last: String = row["last_worn_on"] { o["lastWornOn"] = .string(last) }
        return .object(o)
    }

    static func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

    /// An amount of money as records write it: to the cent, and whole amounts as integers.
    static func money(_ x: Double) -> JSONValue {
        let cents = round2(x)
        return cents == cents.rounded() && abs(cents) < 1e15 ? .int(Int64(cents)) : .double(cents)
    }
}
