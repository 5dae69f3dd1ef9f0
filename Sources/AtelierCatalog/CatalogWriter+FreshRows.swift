import AtelierRecords
import GRDB

extension CatalogWriter {
    /// The statement that inserts rows of one shape, and where its arguments land among the
    /// table's columns (for the stored record).
    struct FreshInsert {
        let statement: Statement
        let columns: TableMapping.InsertedColumns
    }

    /// Stores a new record's row (`FreshRow`): gives it an id and the time, and inserts it.
    /// Returns the stored record when `wantsOutput` (worked out from `record`, the validated
    /// record the row came from, and what was bound), nil otherwise.
    func insert(_ row: FreshRow, record: JSONObject?) throws -> JSONObject? {
        let table = Tables.all[row.table]
        let id = ids.next(table.schema.idPrefix ?? "")
        var arguments = row.arguments
        arguments[row.idSlot] = id.databaseValue
        if let slot = row.updatedSlot { arguments[slot] = now.databaseValue }
        if let slot = row.createdSlot { arguments[slot] = now.databaseValue }
        let insert = try freshInsert(row.key)
        do {
            try runner.run(insert.statement, arguments)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw RecordsError.field("cannot store this \(table.schema.type): \(error.message ?? "constraint failed")")
        } catch let error as DatabaseError {
            throw Catalog.classify(error, path: "catalog")
        }
        guard wantsOutput, let record else { return nil }
        return table.insertedRecord(record, bound: insert.columns, arguments: arguments, defaults: try defaults(table))
    }

    private func freshInsert(_ key: FreshRow.Key) throws -> FreshInsert {
        if let known = freshInserts[key] { return known }
        let table = Tables.all[key.table]
        let columns = table.insertColumns.indices.filter { key.shape & (1 << UInt64($0)) != 0 }.map { table.insertColumns[$0] }
        let sql = "INSERT INTO \(table.table) (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        let made = FreshInsert(statement: try db.makeStatement(sql: sql), columns: shape(columns, of: table))
        freshInserts[key] = made
        return made
    }
}
