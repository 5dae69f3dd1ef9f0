import AtelierRecords
import GRDB

/// Reads records out of the catalog within one read transaction.
public final class CatalogReader {
    let db: Database
    let store: ImageStore
    /// Whether image records leave with absolute store paths (true) or as stored, relative to
    /// the catalog's directory (backups, which must restore anywhere).
    package var resolvesStorePaths = true

    init(db: Database, store: ImageStore) {
        self.db = db
        self.store = store
    }

    /// Lists records matching `query`, calling `emit` for each in order, and returns warnings
    /// about the query itself. Records stream from SQLite unless the order must be made in memory.
    @discardableResult
    public func run(_ query: CatalogQuery, _ emit: (JSONObject) throws -> Void) throws -> [String] {
        guard let table = Tables.mapping(forType: query.type) else {
            throw RecordsError.filter("cannot list \(query.type) records")
        }
        let plan = try QueryPlan(query, table: table)
        let cursor = try Row.fetchCursor(db, sql: plan.sql, arguments: StatementArguments(plan.arguments))
        let streaming = plan.residualSort.isEmpty
        let computes = Self.computesFields(query, schema: table.schema)
        var kept: [JSONObject] = []
        var emitted = 0
        while let row = try cursor.next() {
            var record = table.record(from: row)
            if query.type == "image" && resolvesStorePaths { record = store.resolving(record) }
            if query.availableOnly, query.type == "outfit", case .string(let id)? = record["id"],
               try !ComputedFields.outfitIsAvailable(id, today: query.today, db: db) { continue }
            if computes { try ComputedFields.add(to: &record, type: query.type, today: query.today, db: db) }
            if !plan.residualFilters.allSatisfy({ $0.matches(record) }) { continue }
            if query.expand { record = try expandOutfit(record) }
            if streaming {
                if let limit = plan.residualLimit, emitted >= limit { break }
                try emit(record)
                emitted += 1
            } else {
                kept.append(record)
            }
        }
        if !streaming {
            sortRecords(&kept, by: plan.residualSort)
            for record in kept.prefix(plan.residualLimit ?? kept.count) { try emit(record) }
        }
        return plan.warnings
    }

    /// Whether `query`'s records get their computed fields: an outfit's always (they are part
    /// of it), a garment's readyToWash only when asked for or named by a condition or sort key.
    static func computesFields(_ query: CatalogQuery, schema: RecordSchema) -> Bool {
        !schema.computed.isEmpty && (query.computedFields || query.type == "outfit"
            || query.filters.contains { schema.computed.contains(schema.canonicalFieldName($0.path[0])) }
            || query.sort.contains { schema.computed.contains(schema.canonicalFieldName($0.path[0])) })
    }

    /// SQL that holds for the garments (`garments AS g`) meeting `filters`, and warnings about
    /// them. Conditions SQL can express become a subquery the indexes serve; otherwise the
    /// matching ids are found as `atl-query garments` finds them and passed in as a JSON list.
    func garmentSelection(_ filters: [FieldFilter]) throws -> (sql: String, arguments: [DatabaseValue], warnings: [String]) {
        let query = CatalogQuery(type: "garment", filters: filters)
        let plan = try QueryPlan(query, table: Tables.garments)
        if plan.residualFilters.isEmpty {
            guard let condition = plan.condition else { return ("1", [], plan.warnings) }
            return ("g.id IN (SELECT garments.id FROM garments WHERE \(condition))", plan.conditionArguments, plan.warnings)
        }
        var ids: [JSONValue] = []
        try run(query) { record in if let id = record["id"] { ids.append(id) } }
        return ("g.id IN (SELECT value FROM json_each(?))", [JSONWriter.string(.array(ids)).databaseValue], plan.warnings)
    }

    /// Replaces an outfit's garment ids with the garment records.
    private func expandOutfit(_ outfit: JSONObject) throws -> JSONObject {
        guard case .array(let ids)? = outfit["garments"] else { return outfit }
        var garments: [JSONValue] = []
        let sql = "SELECT \(Tables.garments.selectList) FROM garments WHERE id = ?"
        for case .string(let id) in ids {
            if let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) {
                garments.append(.object(Tables.garments.record(from: row)))
            }
        }
        var out = outfit
        out["garments"] = .array(garments)
        return out
    }

    /// Every record of a stored type in its natural order (export, backup).
    public func forEach(type: String, _ emit: (JSONObject) throws -> Void) throws {
        try run(CatalogQuery(type: type), emit)
    }

    /// Whether a record of `type` with this id is stored.
    public func contains(type: String, id: String) throws -> Bool {
        guard let table = Tables.mapping(forType: type) else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table.table) WHERE id = ?)", arguments: [id]) ?? false
    }

    /// Every stored id of `type`.
    public func ids(type: String) throws -> [String] {
        guard let table = Tables.mapping(forType: type) else { return [] }
        return try String.fetchAll(db, sql: "SELECT id FROM \(table.table)")
    }

    public func counts() throws -> [String: Int] {
        var out: [String: Int] = [:]
        for table in Tables.all {
            out[table.schema.type] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.table)") ?? 0
        }
        return out
    }
}
