import AtelierRecords
import AtelierWardrobe
import Foundation
import GRDB

/// Laundry loads as they move through their life, and what that does to their garments.
///
/// Storing a `laundry` record whose `status` is new for it moves the load's garments
/// (`LaundryStatus.garmentState`): planned → `toWash`, washing → `washing` (`atLaundry` for the
/// cleaner's pile), drying → `drying`, done → `available` with `lastWashedOn` that day and the
/// wears since the wash counted again, cancelled → each back to the state it had before the
/// load took it (kept in `priorStates`), paused → as they are. A load that is done or
/// cancelled is finished: its status no longer changes.
///
/// A new load, or one whose garments, bin, program or temperature change, goes through
/// `LoadCheck` first: one that breaks a garment's care label (a `wash-no` garment in a washing
/// load, 60 °C with a 30 °C garment) is refused unless `forcesLabels`, which stores it with the
/// broken rules among its warnings. A record without `warnings` gets the check's.
extension CatalogWriter {
    func storeLoad(_ input: JSONObject, _ op: Operation, prepared: Prepared?) throws -> JSONObject {
        if op == .delete { return try upsertOrDelete(Tables.laundry, input, op, prepared: prepared) }
        var record = try prepared?.record ?? Schemas.laundry.validate(input)
        let stored = try record["id"]?.string.flatMap { try storedLoad($0) }
        let status = try record["status"]?.string.map(Self.status) ?? stored?.status ?? .planned
        if let stored, stored.status != status, !stored.status.isOpen, !restoring {
            throw RecordsError.field("load \(stored.id) is \(stored.status.rawValue); a finished load's status does not change (plan a new one)")
        }
        let garmentIDs = record["garments"].map { ($0.array ?? []).compactMap(\.string) } ?? stored?.garments ?? []
        let bin = (record["bin"]?.string ?? stored?.bin).flatMap(LaundryBin.init(rawValue:))
        let changesContents = ["garments", "temperature", "program", "bin"].contains { record[$0] != nil }
        if !restoring && status.isOpen && (stored == nil || changesContents) {
            let garments = try garmentIDs.map { try laundryGarment($0) }
            let program = (record["program"]?.string ?? stored?.program).flatMap(LaundryProgram.init(rawValue:))
            let temperature = record["temperature"].flatMap { $0 == .null ? nil : $0.integer.map(Int.init) } ?? (record["temperature"] == nil ? stored?.temperature : nil)
            let found = LoadCheck(bin: bin, program: program, temperatureCelsius: temperature, garments: garments).warnings()
            let broken = found.filter(\.breaksLabel)
            if !broken.isEmpty && !forcesLabels {
                throw RecordsError.field("this load breaks a care label: \(broken.map(\.message).joined(separator: "; ")) (--force stores it anyway, with the warning)")
            }
            if case .array(var given)? = record["warnings"] {
                // The record's own (a plan's), and what it breaks when forced.
                for warning in broken where !given.contains(warning.jsonValue) { given.append(warning.jsonValue) }
                record["warnings"] = .array(given)
            } else {
                record["warnings"] = .array(found.map(\.jsonValue))
            }
        }
        let moves = !restoring && stored?.status != status
        if moves {
            if status == .washing && record["startedAt"] == nil && stored?.startedAt == nil { record["startedAt"] = .string(now) }
            if status == .done && record["finishedAt"] == nil { record["finishedAt"] = .string(now) }
            if record["status"] == nil { record["status"] = .string(status.rawValue) }
            if status.garmentState(in: bin) != nil && status != .done && stored?.priorStates == nil && record["priorStates"] == nil {
                record["priorStates"] = .object(try garmentStates(garmentIDs))
            }
        }
        var out = try upsertOrDelete(Tables.laundry, record, .upsert, prepared: nil)
        if moves {
            let priorStates = record["priorStates"]?.object ?? stored?.priorStates ?? [:]
            try move(garmentIDs, to: status, bin: bin, finishedAt: out["finishedAt"]?.string, priorStates: priorStates)
            if wantsOutput, let id = out["id"]?.string { out = try fetch(Tables.laundry, id: id) }
        }
        return out
    }

    /// Puts the garments where a load in `status` keeps them.
    private func move(_ garments: [String], to status: LaundryStatus, bin: LaundryBin?, finishedAt: String?, priorStates: JSONObject) throws {
        for id in garments {
            if status == .done {
                let day = finishedAt.map { String($0.prefix(10)) } ?? ISODate.formatDay(today)
                try db.execute(sql: """
                    UPDATE garments SET state = 'available', last_washed_on = max(coalesce(last_washed_on, ''), ?), updated_at = ?
                    WHERE id = ?
                    """, arguments: [day, now, id])
                try recountWearsSinceWash(garment: id)
            } else if status == .cancelled {
                guard case .string(let state)? = priorStates[id] else { continue }
                try db.execute(sql: "UPDATE garments SET state = ?, updated_at = ? WHERE id = ?", arguments: [state, now, id])
            } else if let state = status.garmentState(in: bin) {
                try db.execute(sql: "UPDATE garments SET state = ?, updated_at = ? WHERE id = ?", arguments: [state, now, id])
            }
        }
    }

    /// Counts a garment's wears after its last wash again from the wear log (all of them, when
    /// `garment` is nil: after a restore from a catalog that did not keep the count).
    package func recountWearsSinceWash(garment: String? = nil) throws {
        try db.execute(sql: """
            UPDATE garments SET wears_since_wash = (
                SELECT count(*) FROM wear_log w
                WHERE w.garment_id = garments.id AND w.date > coalesce(garments.last_washed_on, ''))
            \(garment == nil ? "" : "WHERE id = ?")
            """, arguments: garment.map { [$0] } ?? [])
    }

    /// Each garment's current state, by id.
    private func garmentStates(_ ids: [String]) throws -> JSONObject {
        var out = JSONObject()
        for id in ids {
            let state = try String.fetchOne(db.cachedStatement(sql: "SELECT state FROM garments WHERE id = ?"), arguments: [id])
            out[id] = .string(state ?? "available")
        }
        return out
    }

    /// A stored garment as laundry sees it.
    private func laundryGarment(_ id: String) throws -> LaundryGarment {
        let sql = "SELECT \(Tables.garments.selectList) FROM garments WHERE id = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]),
              let garment = LaundryGarment(record: Tables.garments.record(from: row))
        else { throw RecordsError.field("no garment \(id) in the catalog") }
        return garment
    }

    /// What a load's row holds that its next change depends on.
    private struct StoredLoad {
        var id: String
        var status: LaundryStatus
        var bin: String?
        var program: String?
        var temperature: Int?
        var garments: [String]
        var warnings: [JSONValue]?
        var startedAt: String?
        var priorStates: JSONObject?
    }

    private func storedLoad(_ id: String) throws -> StoredLoad? {
        let sql = "SELECT status, bin, program, temperature, garments, warnings, started_at, prior_states FROM laundry WHERE id = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) else { return nil }
        func json(_ column: String) -> JSONValue? {
            (row[column] as String?).flatMap { try? JSONParser.parse($0) }
        }
        return StoredLoad(
            id: id, status: LaundryStatus(rawValue: row["status"] ?? "") ?? .planned, bin: row["bin"], program: row["program"],
            temperature: row["temperature"], garments: (json("garments")?.array ?? []).compactMap(\.string),
            warnings: json("warnings")?.array, startedAt: row["started_at"], priorStates: json("prior_states")?.object)
    }

    private static func status(_ name: String) throws(RecordsError) -> LaundryStatus {
        guard let status = LaundryStatus(rawValue: name) else { throw RecordsError.field("unknown laundry status \"\(name)\"") }
        return status
    }
}
