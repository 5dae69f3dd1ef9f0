import AtelierRecords
import GRDB

extension WardrobeStats {
    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// `--by month` and `--by weekday`: the wear log over time, for the garments counted. One
    /// record per month (`2026-11`, with what was bought that month and spent on it, from the
    /// garments' `purchasedOn` and `price`) or per weekday (Monday first): wears (garment
    /// entries of the log), garments (distinct) and outfit wears; then the total.
    func timeline(_ db: Database, selection: (sql: String, arguments: [DatabaseValue], warnings: [String])) throws -> [JSONObject] {
        let byMonth = dimension == .month
        let keySQL = byMonth ? "substr(w.date, 1, 7)" : "CAST(strftime('%w', w.date) AS INTEGER)"
        var range = ""
        if let window {
            range = " AND w.date BETWEEN '\(ISODate.formatDay(window.lowerBound))' AND '\(ISODate.formatDay(window.upperBound))'"
        }
        let wears = try Row.fetchAll(db, sql: """
            SELECT \(keySQL) AS key, count(*) AS wears, count(DISTINCT w.garment_id) AS garments
            FROM wear_log AS w JOIN garments AS g ON g.id = w.garment_id
            WHERE \(selection.sql)\(range) GROUP BY key
            """, arguments: StatementArguments(selection.arguments))
        let outfits = try Row.fetchAll(db, sql: """
            SELECT \(keySQL) AS key, count(*) AS outfits FROM wear_log AS w
            WHERE w.garment_id IS NULL\(range) GROUP BY key
            """)
        var purchases: [Row] = []
        if byMonth {
            var bought = ""
            if let window {
                bought = " AND g.purchased_on BETWEEN '\(ISODate.formatDay(window.lowerBound))' AND '\(ISODate.formatDay(window.upperBound))'"
            }
            purchases = try Row.fetchAll(db, sql: """
                SELECT substr(g.purchased_on, 1, 7) AS key, g.price_currency AS currency, count(*) AS n, sum(g.price_amount) AS spent
                FROM garments AS g WHERE g.purchased_on IS NOT NULL AND \(selection.sql)\(bought)
                GROUP BY key, currency ORDER BY currency
                """, arguments: StatementArguments(selection.arguments))
        }
        func key(_ row: Row) -> String {
            byMonth ? (row["key"] as String? ?? "(none)") : Self.weekdays[(row["key"] as Int? ?? 0) % 7]
        }
        var keys = Set(wears.map(key)).union(outfits.map(key)).union(purchases.map(key))
        if !byMonth { keys = Set(Self.weekdays) }
        let order = byMonth ? keys.sorted() : Array(Self.weekdays.dropFirst()) + ["sunday"]
        var out: [JSONObject] = []
        var total: (wears: Int64, outfits: Int64, bought: Int64, spent: [String: Double]) = (0, 0, 0, [:])
        for group in order {
            var record: JSONObject = ["type": "stats", "by": .string(dimension.rawValue), "group": .string(group)]
            if let window {
                record["since"] = .string(ISODate.formatDay(window.lowerBound))
                record["until"] = .string(ISODate.formatDay(window.upperBound))
            }
            let worn = wears.first { key($0) == group }
            let n: Int64 = worn?["wears"] ?? 0
            record["wears"] = .int(n)
            record["garments"] = .int(worn?["garments"] ?? 0)
            let outfitWears: Int64 = outfits.first { key($0) == group }?["outfits"] ?? 0
            record["outfits"] = .int(outfitWears)
            total.wears += n
            total.outfits += outfitWears
            if byMonth {
                var spent = JSONObject()
                var count: Int64 = 0
                for row in purchases where key(row) == group {
                    count += row["n"] as Int64
                    if let amount = row["spent"] as Double? {
                        let currency = row["currency"] as String? ?? "EUR"
                        spent[currency] = .double(Self.round2(amount))
                        total.spent[currency, default: 0] += amount
                    }
                }
                record["bought"] = .int(count)
                record["spent"] = .object(spent)
                total.bought += count
            }
            out.append(record)
        }
        var all: JSONObject = ["type": "stats", "by": .string(dimension.rawValue), "group": "all", "total": true]
        if let window {
            all["since"] = .string(ISODate.formatDay(window.lowerBound))
            all["until"] = .string(ISODate.formatDay(window.upperBound))
        }
        all["wears"] = .int(total.wears)
        all["garments"] = .int(try Int64.fetchOne(db, sql: """
            SELECT count(DISTINCT w.garment_id) FROM wear_log AS w JOIN garments AS g ON g.id = w.garment_id
            WHERE \(selection.sql)\(range)
            """, arguments: StatementArguments(selection.arguments)) ?? 0)
        all["outfits"] = .int(total.outfits)
        if byMonth {
            all["bought"] = .int(total.bought)
            all["spent"] = .object(JSONObject(total.spent.sorted { $0.key < $1.key }.map { ($0.key, .double(Self.round2($0.value))) }))
        }
        return out + [all]
    }
}
