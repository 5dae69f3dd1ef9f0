import AtelierRecords
import Foundation
import GRDB

/// Wardrobe statistics grouped by one dimension: counts, value, wears, cost per wear, the most
/// and least worn garment, and what has not been worn lately. Computed in SQL so it stays fast
/// on a large catalog.
public struct WardrobeStats {
    public enum Dimension: String, CaseIterable, Sendable {
        case category, subcategory, brand, season, style, color, state

        /// The grouping expression over `garments AS g` (and `s`, the season list, for seasons).
        var keySQL: String {
            switch self {
            case .category: return "g.category"
            case .subcategory: return "g.subcategory"
            case .brand: return "g.brand"
            case .season: return "s.value"
            case .style: return "g.style"
            case .color: return "coalesce(g.color_name, g.color)"
            case .state: return "g.state"
            }
        }

        var from: String {
            self == .season ? "garments AS g LEFT JOIN json_each(g.seasons) AS s" : "garments AS g"
        }
    }

    public var dimension: Dimension
    /// A garment not worn for this many days (or never) counts as unworn.
    public var notWornDays: Int
    public var today: Int
    /// Only garments meeting these conditions are counted (`atl-query stats --where …`).
    public var filters: [FieldFilter]

    public init(by dimension: Dimension, notWornDays: Int = 90, today: Int = ISODate.today(), filters: [FieldFilter] = []) {
        self.dimension = dimension
        self.notWornDays = notWornDays
        self.today = today
        self.filters = filters
    }

    /// One `stats` record per group, largest first, then the total over all garments counted.
    /// Warnings about the conditions (an unknown field) go to `warn`.
    public func compute(_ reader: CatalogReader, warn: (String) -> Void = { _ in }) throws -> [JSONObject] {
        let db = reader.db
        let cutoff = ISODate.formatDay(today - notWornDays)
        let selection = try reader.garmentSelection(filters)
        selection.warnings.forEach(warn)
        let keyed = "SELECT g.id, g.name, g.wear_count, g.last_worn_on, g.price_amount, g.price_currency, \(dimension.keySQL) AS key FROM \(dimension.from) WHERE \(selection.sql)"
        let all = "SELECT g.id, g.name, g.wear_count, g.last_worn_on, g.price_amount, g.price_currency, NULL AS key FROM garments AS g WHERE \(selection.sql)"
        var out: [JSONObject] = []
        for (source, isTotal) in [(keyed, false), (all, true)] {
            let groups = try Row.fetchAll(db, sql: """
                WITH k AS (\(source))
                SELECT key, count(*) AS n, sum(wear_count) AS wears,
                       sum(CASE WHEN last_worn_on IS NULL OR last_worn_on < ? THEN 1 ELSE 0 END) AS unworn
                FROM k GROUP BY key ORDER BY n DESC, key
                """, arguments: StatementArguments(selection.arguments + [cutoff.databaseValue]))
            let values = try Row.fetchAll(db, sql: """
                WITH k AS (\(source))
                SELECT key, price_currency AS currency, sum(price_amount) AS value, sum(wear_count) AS wears
                FROM k WHERE price_amount IS NOT NULL GROUP BY key, price_currency ORDER BY price_currency
                """, arguments: StatementArguments(selection.arguments))
            func extreme(_ direction: String) throws -> [String?: Row] {
                let rows = try Row.fetchAll(db, sql: """
                    WITH k AS (\(source))
                    SELECT key, id, name, wear_count, last_worn_on FROM (
                        SELECT *, row_number() OVER (PARTITION BY key ORDER BY wear_count \(direction), id) AS rank FROM k)
                    WHERE rank = 1
                    """, arguments: StatementArguments(selection.arguments))
                return Dictionary(rows.map { ($0["key"] as String?, $0) }, uniquingKeysWith: { a, _ in a })
            }
            let most = try extreme("DESC")
            let least = try extreme("ASC")
            let stale = try Row.fetchAll(db, sql: """
                WITH k AS (\(source))
                SELECT key, id, name, last_worn_on FROM (
                    SELECT *, row_number() OVER (PARTITION BY key ORDER BY coalesce(last_worn_on, ''), id) AS rank
                    FROM k WHERE last_worn_on IS NULL OR last_worn_on < ?)
                WHERE rank <= 5 ORDER BY key, rank
                """, arguments: StatementArguments(selection.arguments + [cutoff.databaseValue]))
            for group in groups {
                let key: String? = group["key"]
                var record = JSONObject()
                record["type"] = "stats"
                record["by"] = .string(dimension.rawValue)
                record["group"] = isTotal ? "all" : .string(key ?? "(none)")
                if isTotal { record["total"] = true }
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
                if let row = most[key] { record["mostWorn"] = Self.summary(row) }
                if let row = least[key] { record["leastWorn"] = Self.summary(row) }
                let examples = stale.filter { ($0["key"] as String?) == key }.map { Self.summary($0) }
                record["notWorn"] = ["days": .int(Int64(notWornDays)), "count": .int(group["unworn"]), "longest": .array(examples)]
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
}
