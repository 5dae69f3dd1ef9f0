import AtelierRecords
import GRDB
import GRDBSQLite

extension CatalogReader {
    /// Lists the records matching `query` as NDJSON: the very lines `JSONWriter` writes for the
    /// records `run` emits, handed to `write` in chunks of at least `chunkBytes` (0: each line
    /// on its own) together with the number of lines in the chunk. Returns `run`'s warnings.
    ///
    /// A query SQL answers whole (its conditions, order and limit all in SQL, no computed
    /// fields, no `expand`, no store paths to resolve, no derived fields) is written straight
    /// from the statement's columns by `RowLineWriter`, one reused buffer and no record per row,
    /// so time and memory stay close to SQLite's own. Any other query goes through `run`.
    public func writeLines(_ query: CatalogQuery, chunkBytes: Int, _ write: LineSink) throws -> [String] {
        var chunk = LineChunk(chunkBytes: chunkBytes)
        guard let table = Tables.mapping(forType: query.type), let writer = RowLineWriter(table) else {
            return try writeRecords(query, &chunk, write)
        }
        let plan = try QueryPlan(query, table: table)
        let wholeInSQL = plan.residualFilters.isEmpty && plan.residualSort.isEmpty && plan.residualLimit == nil
        guard wholeInSQL, !query.expand, !query.availableOnly, !(query.type == "image" && resolvesStorePaths),
              !Self.computesFields(query, schema: table.schema) else {
            return try writeRecords(query, &chunk, write)
        }
        let statement = try db.makeStatement(sql: plan.sql)
        try statement.setArguments(StatementArguments(plan.arguments))
        let handle = statement.sqliteStatement
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw StatementRunner.lastError(db, sql: plan.sql) }
            writer.append(handle, to: &chunk.bytes)
            try chunk.lineWritten(write)
        }
        try chunk.flush(write)
        return plan.warnings
    }

    /// Takes NDJSON bytes and the number of lines in them.
    public typealias LineSink = (UnsafeRawBufferPointer, _ lines: Int) throws -> Void

    /// `writeLines` by way of the records `run` builds.
    private func writeRecords(_ query: CatalogQuery, _ chunk: inout LineChunk, _ write: LineSink) throws -> [String] {
        let warnings = try run(query) { record in
            JSONWriter.append(record, to: &chunk.bytes)
            chunk.bytes.append(0x0A)
            try chunk.lineWritten(write)
        }
        try chunk.flush(write)
        return warnings
    }
}

/// Lines gathered in one reused buffer and handed on once they fill `chunkBytes`.
private struct LineChunk {
    var bytes: [UInt8] = []
    var lines = 0
    let chunkBytes: Int

    init(chunkBytes: Int) {
        self.chunkBytes = chunkBytes
        bytes.reserveCapacity(chunkBytes + 4096)
    }

    /// Counts the line just appended to `bytes`, and hands the chunk on if it is full.
    mutating func lineWritten(_ write: CatalogReader.LineSink) throws {
        lines += 1
        if bytes.count >= chunkBytes { try flush(write) }
    }

    mutating func flush(_ write: CatalogReader.LineSink) throws {
        guard lines > 0 else { return }
        try bytes.withUnsafeBytes { try write($0, lines) }
        bytes.removeAll(keepingCapacity: true)
        lines = 0
    }
}
