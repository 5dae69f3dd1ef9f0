import AtelierRecords
import Foundation
import GRDB

/// Stores records in the catalog inside a transaction that `Catalog.write` opened.
///
/// `apply` is the one entry point for every record type: upsert by id (fields a record names
/// replace the stored ones, `null` clears one, fields it leaves out stay), `"op":"delete"`,
/// wear logging with its side effects, and the links between garments, images, care readings
/// and models. Unknown record types come back untouched so a pipeline never loses them.
public final class CatalogWriter {
    let db: Database
    let store: ImageStore
    /// The day a wear without a date is logged on.
    public var today: Int = ISODate.today()
    /// Keep `createdAt`/`updatedAt` as given and log wears without touching counts (restore).
    public var restoring = false
    /// Whether `apply` must return the records as stored; a restore does not look at them.
    public var wantsOutput = true
    /// Store laundry loads that break a care label, with the broken rules among their warnings,
    /// instead of refusing them (`atl-import --force`).
    public var forcesLabels = false
    var ids = RecordIDGenerator()
    let now = ISODate.formatInstant(Date())

    var runner: StatementRunner
    /// The INSERT of each fresh-row shape seen (`insert(_:record:)`).
    var freshInserts: [FreshRow.Key: FreshInsert] = [:]

    init(db: Database, store: ImageStore) {
        self.db = db
        self.store = store
        runner = StatementRunner(db: db)
    }

    /// Drops the plain (non-unique) indexes of the tables that are empty, returning the SQL that
    /// makes them again; run it before the transaction commits.
    ///
    /// Building an index once over a million rows is several times cheaper than keeping it in
    /// order through a million inserts, which matters for the first, big import into a new
    /// catalog. It all happens inside the transaction, so other readers never see a table
    /// without its indexes, and a failed import rolls the drop back with everything else.
    public func deferIndexesOfEmptyTables() throws -> [String] {
        var recreate: [String] = []
        for table in Tables.all {
            guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(table.table))") ?? false else { continue }
            let indexes = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", arguments: [table.table])
            for index in indexes {
                let name: String = index["name"], sql: String = index["sql"]
                guard !sql.uppercased().hasPrefix("CREATE UNIQUE") else { continue }  // they enforce rules
                try db.execute(sql: "DROP INDEX \(name)")
                recreate.append(sql)
            }
        }
        return recreate
    }

    /// Makes the indexes `deferIndexesOfEmptyTables` dropped.
    public func restoreIndexes(_ statements: [String]) throws {
        guard !statements.isEmpty else { return }
        // Each build sorts the whole table; SQLite's sorter can use a second core for that,
        // which by now (the parsing thread done) is idle. One helper thread: a second would add
        // its own sort memory (8 MB more at a million rows) and has no core to run on here.
        try db.execute(sql: "PRAGMA threads = 1")
        defer { try? db.execute(sql: "PRAGMA threads = 0") }
        for sql in statements { try db.execute(sql: sql) }
    }

    /// Runs `body` in a savepoint, so a record that fails half-way leaves no trace (used when
    /// bad records are skipped rather than aborting the whole input).
    public func isolated<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try db.inSavepoint {
            result = try body()
            return .commit
        }
        return result!
    }

    /// Stores one record and returns the records to print: the stored record as it now is in the
    /// catalog, or the record itself for types the catalog does not keep.
    /// Throws `RecordsError` for a record that cannot be stored, `CatalogError` for the database.
    public func apply(_ input: JSONObject) throws -> [JSONObject] {
        try apply(input, prepared: nil)
    }

    /// The types `validate` checks ahead of time: those stored as they come (images are made
    /// relative to the store first, so they are checked in `apply`).
    static let prevalidatedTypes: Set<String> = ["garment", "outfit", "laundry", "model"]

    /// A record checked ahead of time: the work `apply` would otherwise do while holding the
    /// write lock. A new record that qualifies also has its row (`FreshRow`).
    struct Prepared {
        var record: JSONObject
        var row: FreshRow?
    }

    /// Checks and normalises a record as `apply` would, without the database, so it can run on
    /// another thread; nil for a type `apply` checks itself.
    static func prepare(_ input: JSONObject) throws(RecordsError) -> Prepared? {
        guard case .string(let type)? = input["type"], prevalidatedTypes.contains(type),
              let index = Tables.all.firstIndex(where: { $0.schema.type == type }) else { return nil }
        var record = try Tables.all[index].schema.validate(input)
        if type == "garment" { checkCategory(&record) }
        return Prepared(record: record, row: FreshRow(record, table: index))
    }

    /// `apply` for a record `prepare` made, or (nil) one to check here.
    func apply(_ input: JSONObject, prepared: Prepared?) throws -> [JSONObject] {
        guard case .string(let type)? = input["type"] else {
            throw RecordsError.field(input["type"] == nil ? "record has no \"type\" field" : "field \"type\" must be a string")
        }
        let op = try operation(of: input)
        do {
            switch type {
            case "garment": return [try upsertOrDelete(Tables.garments, input, op, prepared: prepared)]
            case "outfit": return [try upsertOrDelete(Tables.outfits, input, op, prepared: prepared)]
            case "laundry": return [try storeLoad(input, op, prepared: prepared)]
            case "image": return [try upsertOrDelete(Tables.images, input, op, prepared: nil)]
            case "model": return [try upsertOrDelete(Tables.models, input, op, prepared: prepared)]
            case "wear": return [try logWear(input, op)]
            case "care": return [try attachCare(input)]
            case "color": return [try attachColor(input)]
            default: return [input]
            }
        } catch let error as DatabaseError {
            throw Catalog.classify(error, path: "catalog")
        }
    }

    enum Operation { case upsert, delete }

    private func operation(of record: JSONObject) throws -> Operation {
        switch record["op"] {
        case nil, .string("upsert")?: return .upsert
        case .string("delete")?: return .delete
        case let other?: throw RecordsError.field("field \"op\" must be \"upsert\" or \"delete\", got \(RecordSchema.preview(other))")
        }
    }

    // MARK: - Records with ids

    func upsertOrDelete(_ table: TableMapping, _ input: JSONObject, _ op: Operation, prepared: Prepared?) throws -> JSONObject {
        let schema = table.schema
        var record = try prepared?.record ?? schema.validate(schema.type == "image" ? store.relativising(input) : input)
        record["op"] = nil
        if op == .delete {
            guard case .string(let id)? = record["id"] else { throw RecordsError.field("a delete needs the \(schema.type)'s \"id\"") }
            try db.execute(sql: "DELETE FROM \(table.table) WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw RecordsError.field("no \(schema.type) \(id) in the catalog to delete") }
            return JSONObject([("type", .string(schema.type)), ("op", "delete"), ("id", .string(id))])
        }
        if schema.type == "garment" && prepared == nil { Self.checkCategory(&record) }
        let given = record["id"]?.string
        let id: String
        if let given {
            id = given
        } else if let prefix = schema.idPrefix {
            id = ids.next(prefix)
        } else {
            throw RecordsError.field("an \(schema.type) record needs its \"id\" (sha256:<hex> of the file)")
        }
        record["id"] = .string(id)
        let complete = schema.required.allSatisfy { record[$0] != nil && record[$0] != .null }
        if given == nil && !complete {
            let missing = schema.required.filter { record[$0] == nil || record[$0] == .null }
            throw RecordsError.field("a new \(schema.type) needs \(missing.map { "\"\($0)\"" }.joined(separator: " and "))")
        }
        if schema.field("updatedAt") != nil && !(restoring && record["updatedAt"] != nil) {
            record["updatedAt"] = .string(now)
        }
        let bound = table.bindings(for: record)
        let (names, values, extra) = (bound.names, bound.values, bound.extra)
        if complete {
            // Insert, or update exactly the fields the record names.
            var columns = names
            var arguments = values
            if record["createdAt"] == nil, schema.field("createdAt") != nil {
                columns.append("created_at")
                arguments.append(now.databaseValue)
            }
            columns.append("extra")
            arguments.append(extra ?? .null)
            // An id made here cannot be in the catalog yet: a plain insert, and the stored record
            // follows from what was bound, without reading it back.
            let fresh = given == nil
            try execute(insertSQL(table, columns: columns, upsert: !fresh), arguments, record: record)
            if fresh && table.derived.isEmpty {
                try storeLinks(schema.type, id: id, record: record, fresh: true)
                guard wantsOutput else { return record }
                let stored = table.insertedRecord(record, bound: shape(columns, of: table), arguments: arguments, defaults: try defaults(table))
                return schema.type == "image" ? store.resolving(stored) : stored
            }
        } else {
            let pairs = zip(names, values).filter { $0.0 != "id" }
            var sets = pairs.map { "\($0.0) = ?" }
            var arguments = pairs.map(\.1)
            if let extra {
                sets.append("extra = json_patch(coalesce(extra, '{}'), ?)")
                arguments.append(extra)
            }
            arguments.append(id.databaseValue)
            if !sets.isEmpty {
                try execute("UPDATE \(table.table) SET \(sets.joined(separator: ", ")) WHERE id = ?", arguments, record: record)
            }
            let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table.table) WHERE id = ?)", arguments: [id]) ?? false
            guard exists else {
                let missing = schema.required.filter { record[$0] == nil }.map { "\"\($0)\"" }.joined(separator: " and ")
                throw RecordsError.field("no \(schema.type) \(id) in the catalog to update (a new \(schema.type) needs \(missing))")
            }
        }
        try storeLinks(schema.type, id: id, record: record)
        return wantsOutput ? try fetch(table, id: id) : record
    }

    /// The INSERT for a set of columns (an upsert that changes only those columns when `upsert`),
    /// built once per table and column set: a bulk import sends the same shape many times.
    private func insertSQL(_ table: TableMapping, columns: [String], upsert: Bool) -> String {
        let key = SQLKey(table: table.table, columns: columns, upsert: upsert)
        if let sql = sqlCache[key] { return sql }
        var sql = "INSERT INTO \(table.table) (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        if upsert {
            let updates = columns.filter { $0 != "id" && $0 != "created_at" && $0 != "extra" }.map { "\($0) = excluded.\($0)" }
                + ["extra = CASE WHEN excluded.extra IS NULL THEN extra ELSE json_patch(coalesce(extra, '{}'), excluded.extra) END"]
            sql += " ON CONFLICT(id) DO UPDATE SET \(updates.joined(separator: ", "))"
        }
        sqlCache[key] = sql
        return sql
    }

    /// The argument positions of an INSERT's columns, per table and column list.
    func shape(_ columns: [String], of table: TableMapping) -> TableMapping.InsertedColumns {
        let key = SQLKey(table: table.table, columns: columns, upsert: false)
        if let known = shapes[key] { return known }
        let made = TableMapping.InsertedColumns(columns, of: table)
        shapes[key] = made
        return made
    }

    private var shapes: [SQLKey: TableMapping.InsertedColumns] = [:]

    private struct SQLKey: Hashable {
        var table: String
        var columns: [String]
        var upsert: Bool
    }

    private var sqlCache: [SQLKey: String] = [:]

    /// Each column's default (from the schema itself, `PRAGMA table_info`), by SQL name.
    func defaults(_ table: TableMapping) throws -> [String: DatabaseValue] {
        if let known = defaultsCache[table.table] { return known }
        var found: [String: DatabaseValue] = [:]
        for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.table))") {
            guard let text: String = row["dflt_value"] else { continue }
            if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 {
                found[row["name"]] = String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'").databaseValue
            } else if let integer = Int64(text) {
                found[row["name"]] = integer.databaseValue
            } else if let real = Double(text) {
                found[row["name"]] = real.databaseValue
            }
        }
        defaultsCache[table.table] = found
        return found
    }

    private var defaultsCache: [String: [String: DatabaseValue]] = [:]

    /// A known subcategory brings its category when the record names none. When it names
    /// another (swimwear filed under `other`, as another app may), the user's category stands:
    /// where a garment is filed is theirs to say, and the subcategory still brings its wear limit.
    private static func checkCategory(_ record: inout JSONObject) {
        guard case .string(let sub)? = record["subcategory"], let info = Domain.subcategory(named: sub) else { return }
        if record["category"] == nil || record["category"] == .null { record["category"] = .string(info.category) }
    }

    private func execute(_ sql: String, _ arguments: [DatabaseValue], record: JSONObject) throws {
        do {
            try runner.run(sql, arguments)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            throw RecordsError.field(try describeMissingReference(record))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw RecordsError.field("cannot store this \(record["type"]?.string ?? "record"): \(error.message ?? "constraint failed")")
        }
    }

    /// Names the referenced record that does not exist, for a foreign-key failure.
    private func describeMissingReference(_ record: JSONObject) throws -> String {
        for (field, table) in [("garment", "garments"), ("outfit", "outfits")] {
            if case .string(let id)? = record[field],
               try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id]) ?? false)
            {
                return "no \(field) \(id) in the catalog"
            }
        }
        if case .array(let items)? = record["garments"] {
            for case .string(let id) in items
            where try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM garments WHERE id = ?)", arguments: [id]) ?? false) {
                return "no garment \(id) in the catalog"
            }
        }
        return "the record refers to something that is not in the catalog"
    }

    /// Keeps the relations that live outside a record's own row in step with it.
    /// What a stored record implies elsewhere: an outfit's garments, a garment's photos, a wash
    /// day's recount. `fresh`: the id was made just now, so nothing refers to it yet.
    private func storeLinks(_ type: String, id: String, record: JSONObject, fresh: Bool = false) throws {
        switch type {
        case "outfit":
            guard let garments = record["garments"] else { return }
            try db.execute(sql: "DELETE FROM outfit_garments WHERE outfit_id = ?", arguments: [id])
            for (position, item) in (garments.array ?? []).enumerated() {
                guard case .string(let garment) = item else { continue }
                try execute("INSERT INTO outfit_garments (outfit_id, garment_id, position) VALUES (?, ?, ?)",
                            [id.databaseValue, garment.databaseValue, position.databaseValue], record: record)
            }
        case "garment":
            // A wash day set by hand: the wears after it are counted again, unless given too (a
            // garment made just now has no wears logged to count).
            if record["lastWashedOn"] != nil && record["wearsSinceWash"] == nil && !restoring && !fresh {
                try recountWearsSinceWash(garment: id)
            }
            if case .array? = record["images"] {
                try db.execute(sql: "UPDATE images SET garment_id = ? WHERE id IN (SELECT value FROM json_each(?)) AND garment_id IS NOT ?",
                               arguments: [id, JSONWriter.string(record["images"]!), id])
            }
        case "image":
            if case .string(let garment)? = record["garment"] {
                try db.execute(sql: """
                    UPDATE garments SET images = json_insert(coalesce(images, '[]'), '$[#]', ?), updated_at = ?
                    WHERE id = ? AND NOT EXISTS (SELECT 1 FROM json_each(coalesce(garments.images, '[]')) WHERE value = ?)
                    """, arguments: [id, now, garment, id])
            }
        case "laundry":
            // A load's garments live in a JSON list, so SQLite cannot check them: check here.
            for case .string(let garment) in record["garments"]?.array ?? []
            where try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM garments WHERE id = ?)", arguments: [garment]) ?? false) {
                throw RecordsError.field("no garment \(garment) in the catalog")
            }
        case "model":
            if case .string(let garment)? = record["garment"] {
                try db.execute(sql: "UPDATE garments SET model_id = ?, updated_at = ? WHERE id = ?", arguments: [id, now, garment])
            }
        default:
            break
        }
    }

    func fetch(_ table: TableMapping, id: String) throws -> JSONObject {
        let sql = "SELECT \(table.selectList) FROM \(table.table) WHERE id = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) else {
            throw RecordsError.field("\(table.schema.type) \(id) vanished while being stored")
        }
        let record = table.record(from: row)
        return table.schema.type == "image" && !restoring ? store.resolving(record) : record
    }

    // MARK: - Readings from photos

    /// The garment a reading names, or the garment of the image it was read from.
    private func garment(of reading: JSONObject, what: String) throws -> String {
        if let garment = reading["garment"]?.string { return garment }
        if case .string(let image)? = reading["image"],
           let garment = try String.fetchOne(db, sql: "SELECT garment_id FROM images WHERE id = ?", arguments: [image]) {
            return garment
        }
        throw RecordsError.field("this \(what) record names no garment; run 'atl-classify --task \(what) --garment ID' or add \"garment\"")
    }

    /// A colour reading sets the garment's `color` and `colorName` to its primary colour.
    private func attachColor(_ input: JSONObject) throws -> JSONObject {
        let reading = try Schemas.color.validate(input)
        let garment = try garment(of: reading, what: "color")
        guard case .string(let hex)? = reading["color"] else { throw RecordsError.field("a color record needs \"color\" (the primary colour, #rrggbb)") }
        try db.execute(sql: "UPDATE garments SET color = ?, color_name = ?, updated_at = ? WHERE id = ?",
                       arguments: [hex, reading["colorName"]?.string, now, garment])
        guard db.changesCount > 0 else { throw RecordsError.field("no garment \(garment) in the catalog") }
        return try fetch(Tables.garments, id: garment)
    }

    /// A care reading sets the care symbols of its garment (named, or found through its image).
    private func attachCare(_ input: JSONObject) throws -> JSONObject {
        let record = try Schemas.care.validate(input)
        let garment = try garment(of: record, what: "care")
        var codes: [JSONValue] = []
        for case .object(let reading) in record["symbols"]?.array ?? [] {
            if let code = reading["code"], !codes.contains(code) { codes.append(code) }
        }
        try db.execute(sql: "UPDATE garments SET care = ?, updated_at = ? WHERE id = ?",
                       arguments: [JSONWriter.string(.array(codes)), now, garment])
        guard db.changesCount > 0 else { throw RecordsError.field("no garment \(garment) in the catalog") }
        return try fetch(Tables.garments, id: garment)
    }
}
