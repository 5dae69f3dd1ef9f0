import AtelierRecords
import AtelierWardrobe
import GRDB

/// The fields worked out as records are read (`RecordSchema.computed`), by the wardrobe's own
/// rules, so a query condition on one agrees with the laundry plan and the suggestions.
enum ComputedFields {
    /// Adds the computed fields of a `type` record, as of `today`: a garment's `readyToWash`;
    /// an outfit's colour `tone` and total `value` (by currency), from its garments.
    static func add(to record: inout JSONObject, type: String, today: Int, db: Database) throws {
        switch type {
        case "garment":
            guard let garment = LaundryGarment(record: record) else { return }
            record["readyToWash"] = .bool(garment.isReadyToWash(on: today))
        case "outfit":
            guard case .string(let id)? = record["id"] else { return }
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT g.color, g.price_amount, g.price_currency FROM outfit_garments AS og
                JOIN garments AS g ON g.id = og.garment_id WHERE og.outfit_id = ? ORDER BY og.position
                """), arguments: [id])
            let colours = rows.compactMap { ($0["color"] as String?).flatMap(GarmentColour.init(hex:)) }
            record["tone"] = .string(ColourTone(outfit: colours).rawValue)
            var value: [String: Double] = [:]
            for row in rows {
                guard let amount = row["price_amount"] as Double? else { continue }
                value[row["price_currency"] as String? ?? "EUR", default: 0] += amount
            }
            record["value"] = .object(JSONObject(value.sorted { $0.key < $1.key }.map { ($0.key, WardrobeStats.money($0.value)) }))
        default:
            break
        }
    }

    /// Whether every garment of an outfit is at home and clean on `today`: state available (or
    /// none) and not wanting a wash.
    static func outfitIsAvailable(_ id: String, today: Int, db: Database) throws -> Bool {
        let sql = "SELECT \(Tables.garments.selectList) FROM outfit_garments AS og JOIN garments ON garments.id = og.garment_id WHERE og.outfit_id = ?"
        for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [id]) {
            guard let garment = LaundryGarment(record: Tables.garments.record(from: row)) else { continue }
            if (garment.state ?? "available") != "available" || garment.isReadyToWash(on: today) { return false }
        }
        return true
    }
}
