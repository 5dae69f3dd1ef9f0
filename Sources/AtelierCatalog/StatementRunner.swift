import GRDB
import GRDBSQLite

/// Runs writes through SQLite's C API on statements GRDB prepared and caches.
///
/// GRDB's `execute(arguments:)` builds a `StatementArguments` and checks it on every call,
/// which costs more than SQLite's own insert on a bulk import; binding the values directly
/// halves that overhead. Errors come back as GRDB's `DatabaseError`, so callers see no difference.
struct StatementRunner {
    let db: Database
    private var statements: [String: Statement] = [:]

    init(db: Database) { self.db = db }

    /// Executes `sql` (an INSERT, UPDATE or DELETE that returns no rows) with `arguments`.
    mutating func run(_ sql: String, _ arguments: [DatabaseValue]) throws {
        let statement: Statement
        if let known = statements[sql] {
            statement = known
        } else {
            statement = try db.makeStatement(sql: sql)
            statements[sql] = statement
        }
        try run(statement, arguments)
    }

    /// Executes a statement prepared on this connection with `arguments`.
    func run(_ statement: Statement, _ arguments: [DatabaseValue]) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value.storage {
            case .null: code = sqlite3_bind_null(handle, index)
            case .int64(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .double(let real): code = sqlite3_bind_double(handle, index, real)
            case .string(var text):
                // With its length, so SQLite need not look for the end (an empty buffer has no
                // address, which SQLite would bind as NULL, not as "").
                code = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        guard let start = $0.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
                        return sqlite3_bind_text(handle, index, start, Int32($0.count), Self.transient)
                    }
                }
            case .blob(let data): code = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            guard code == SQLITE_OK else { throw Self.lastError(db, sql: statement.sql) }
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            let failure = Self.lastError(db, sql: statement.sql)
            sqlite3_reset(handle)
            throw failure
        }
        sqlite3_reset(handle)
    }

    /// The connection's last error, as GRDB reports it.
    static func lastError(_ db: Database, sql: String) -> DatabaseError {
        let connection = db.sqliteConnection
        return DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                             message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound bytes (a macro Swift cannot import).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
