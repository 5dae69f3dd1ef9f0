import AtelierRecords
import AtelierWardrobe
import GRDB

extension WardrobeStats {
    /// What the whole-wardrobe record adds: how evenly the garments at home (not on loan, under
    /// repair or archived) are worn (`rotation`: the Gini coefficient of their wears, the share worn
    /// at least once, and how many there are), and the wear log's streaks of logged days up to
    /// the last day counted (`streak`: current and longest).
    func summary(_ db: Database, counted source: String, arguments: [DatabaseValue], asOf: Int) throws -> JSONObject {
        let wears = try Int.fetchAll(db, sql: """
            WITH k AS (\(source))
            SELECT k.wear_count FROM k JOIN garments AS home ON home.id = k.id
            WHERE home.state NOT IN ('onLoan', 'underRepair', 'archived')
            """, arguments: StatementArguments(arguments))
        var rotation: JSONObject = ["garments": .int(Int64(wears.count))]
        if let gini = WearInsights.gini(wears) { rotation["gini"] = .double(Self.round2(gini)) }
        if !wears.isEmpty {
            rotation["wornShare"] = .double(Self.round2(Double(wears.filter { $0 > 0 }.count) / Double(wears.count)))
        }
        let days = try String.fetchAll(db, sql: "SELECT DISTINCT date FROM wear_log WHERE date <= ?", arguments: [ISODate.formatDay(asOf)])
            .compactMap(ISODate.parseDay)
        let streaks = WearInsights.streaks(days, asOf: asOf)
        return ["rotation": .object(rotation), "streak": ["current": .int(Int64(streaks.current)), "longest": .int(Int64(streaks.longest))]]
    }
}

extension WardrobeStats {
    /// `--compare`: the records of the window, each with the same group's figures over the
    /// window of the same length just before it (`previous`: since, until, wears, and the
    /// wardrobe's rotation for the total) and `wearsChange`, the difference in wears.
    public func compared(_ reader: CatalogReader, warn: (String) -> Void = { _ in }) throws -> [JSONObject] {
        guard let window else { return try compute(reader, warn: warn) }
        let length = window.upperBound - window.lowerBound + 1
        var before = self
        before.window = (window.lowerBound - length) ... (window.lowerBound - 1)
        let current = try compute(reader, warn: warn)
        let previous = try before.compute(reader)
        func key(_ record: JSONObject) -> String? { (record["garment"] ?? record["group"])?.string }
        var byKey: [String: JSONObject] = [:]
        for record in previous { if let k = key(record) { byKey[k] = record } }
        return current.map { record in
            guard let k = key(record), let old = byKey[k] else { return record }
            var out = record
            var summary: JSONObject = ["since": old["since"] ?? .null, "until": old["until"] ?? .null, "wears": old["wears"] ?? 0]
            if let rotation = old["rotation"] { summary["rotation"] = rotation }
            out["previous"] = .object(summary)
            out["wearsChange"] = .int((record["wears"]?.integer ?? 0) - (old["wears"]?.integer ?? 0))
            return out
        }
    }
}
