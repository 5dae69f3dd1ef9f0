import AtelierRecords
import GRDB

/// The wear log: one entry per garment per day and one per outfit per day.
///
/// Logging a new entry bumps the garment's (or outfit's) `wearCount`, moves `lastWornOn`
/// forward and, for a wear on a day after the garment's `lastWashedOn`, bumps its
/// `wearsSinceWash`; logging an outfit logs each of its garments too. Logging the same day again changes
/// nothing, so re-importing a log is harmless. Deleting an entry undoes its effect, with
/// `lastWornOn` recomputed from what is left of the log.
extension CatalogWriter {
    func logWear(_ input: JSONObject, _ op: Operation) throws -> JSONObject {
        var record = try Schemas.wear.validate(input)
        record["op"] = nil
        let garment = record["garment"]?.string
        let outfit = record["outfit"]?.string
        guard garment != nil || outfit != nil else {
            throw RecordsError.field("a wear record needs a \"garment\" or an \"outfit\" id")
        }
        if record["date"] == nil || record["date"] == .null { record["date"] = .string(ISODate.formatDay(today)) }
        let date = record["date"]!.string!
        let extra = Tables.wear.bindings(for: record).extra

        if op == .delete {
            try unlogWear(garment: garment, outfit: outfit, date: date)
            var out = record
            out["op"] = "delete"
            return out
        }
        if let garment {
            try logGarment(garment, outfit: outfit, date: date, extra: extra, record: record)
        } else if let outfit {
            let inserted = try insertEntry(garment: nil, outfit: outfit, date: date, extra: extra, record: record)
            if inserted && !restoring {
                try db.execute(sql: """
                    UPDATE outfits SET wear_count = wear_count + 1,
                        last_worn_on = max(coalesce(last_worn_on, ''), ?) WHERE id = ?
                    """, arguments: [date, outfit])
                let members = try String.fetchAll(db, sql: "SELECT garment_id FROM outfit_garments WHERE outfit_id = ? ORDER BY position", arguments: [outfit])
                for member in members {
                    try logGarment(member, outfit: outfit, date: date, extra: nil, record: record)
                }
            }
        }
        return record
    }

    private func logGarment(_ garment: String, outfit: String?, date: String, extra: DatabaseValue?, record: JSONObject) throws {
        let inserted = try insertEntry(garment: garment, outfit: outfit, date: date, extra: extra, record: record)
        if inserted && !restoring {
            try db.cachedStatement(sql: """
                UPDATE garments SET wear_count = wear_count + 1,
                    last_worn_on = max(coalesce(last_worn_on, ''), ?),
                    wears_since_wash = wears_since_wash + (? > coalesce(last_washed_on, '')) WHERE id = ?
                """).execute(arguments: [date, date, garment])
        }
    }

    /// Inserts a log entry unless that day is already logged; true when it was new.
    private func insertEntry(garment: String?, outfit: String?, date: String, extra: DatabaseValue?, record: JSONObject) throws -> Bool {
        do {
            try db.cachedStatement(sql: "INSERT INTO wear_log (garment_id, outfit_id, date, extra) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
                .execute(arguments: [garment, outfit, date, extra ?? .null])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            if let garment, try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM garments WHERE id = ?)", arguments: [garment]) ?? false) {
                throw RecordsError.field("no garment \(garment) in the catalog")
            }
            throw RecordsError.field("no outfit \(outfit ?? "?") in the catalog")
        }
        return db.changesCount > 0
    }

    private func unlogWear(garment: String?, outfit: String?, date: String) throws {
        var garments: [String] = []
        if let garment {
            try db.execute(sql: "DELETE FROM wear_log WHERE garment_id = ? AND date = ?", arguments: [garment, date])
            guard db.changesCount > 0 else { throw RecordsError.field("no wear of \(garment) on \(date) in the log") }
            garments = [garment]
        } else if let outfit {
            garments = try String.fetchAll(db, sql: "SELECT garment_id FROM wear_log WHERE outfit_id = ? AND date = ? AND garment_id IS NOT NULL", arguments: [outfit, date])
            try db.execute(sql: "DELETE FROM wear_log WHERE outfit_id = ? AND date = ?", arguments: [outfit, date])
            guard db.changesCount > 0 else { throw RecordsError.field("no wear of \(outfit) on \(date) in the log") }
            try db.execute(sql: """
                UPDATE outfits SET wear_count = max(0, wear_count - 1),
                    last_worn_on = (SELECT max(date) FROM wear_log WHERE outfit_id = ? AND garment_id IS NULL) WHERE id = ?
                """, arguments: [outfit, outfit])
        }
        for g in garments {
            try db.execute(sql: """
                UPDATE garments SET wear_count = max(0, wear_count - 1),
                    last_worn_on = (SELECT max(date) FROM wear_log WHERE garment_id = ?),
                    wears_since_wash = max(0, wears_since_wash - (? > coalesce(last_washed_on, ''))) WHERE id = ?
                """, arguments: [g, date, g])
        }
    }
}
