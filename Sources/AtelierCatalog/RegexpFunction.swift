import AtelierRecords
import Foundation
import GRDB
import GRDBSQLite

/// SQLite's `REGEXP` operator, backed by the same `RegularExpression` matching that `--where
/// 'field~pattern'` uses on a stream (so the catalog and `atl-query -` agree, and neither can be
/// made to run for minutes by a pattern), so a regular expression on a text column can be
/// answered inside SQLite: only the matching rows are decoded, instead of every row of the table.
///
/// Registered through SQLite's C API rather than as a GRDB `DatabaseFunction`: it runs once per
/// row of the table, and GRDB's wrapper (an array of `DatabaseValue`s and two `String`s per
/// call) cost more than the matching. Text is matched on SQLite's own bytes.
enum RegexpFunction {
    /// Adds `regexp(pattern, subject)` to the connection: `X REGEXP Y` calls `regexp(Y, X)`.
    /// NULL values match nothing (the result is NULL), and so does everything when the pattern
    /// does not compile (`FieldFilter` has refused it before any query runs). A number is
    /// matched as its decimal text, a BLOB never matches.
    static func register(_ db: Database) throws {
        let cache = Unmanaged.passRetained(PatternCache()).toOpaque()
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, cache,
            { context, _, arguments in
                guard let context, let arguments else { return }
                let cache = Unmanaged<PatternCache>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                switch RegexpFunction.evaluate(arguments[0], arguments[1], cache) {
                case nil: sqlite3_result_null(context)
                case let matched?: sqlite3_result_int(context, matched ? 1 : 0)
                }
            },
            nil, nil,
            { cache in if let cache { Unmanaged<PatternCache>.fromOpaque(cache).release() } })
        guard code == SQLITE_OK else { throw StatementRunner.lastError(db, sql: "regexp") }
    }

    /// Whether `subject` matches `pattern`, or nil for SQL's NULL.
    private static func evaluate(_ pattern: OpaquePointer?, _ subject: OpaquePointer?, _ cache: PatternCache) -> Bool? {
        let patternType = sqlite3_value_type(pattern)
        guard patternType == SQLITE_TEXT || patternType == SQLITE_BLOB,
              let patternBytes = bytes(of: pattern, upToNUL: patternType == SQLITE_TEXT) else { return nil }
        switch sqlite3_value_type(subject) {
        case SQLITE_NULL:
            return nil
        case SQLITE_BLOB:
            return false
        case SQLITE_INTEGER:
            guard let regex = cache.regex(patternBytes) else { return false }
            return regex.matches(String(sqlite3_value_int64(subject)))
        case SQLITE_FLOAT:
            guard let regex = cache.regex(patternBytes) else { return false }
            return regex.matches("\(sqlite3_value_double(subject))")
        default:
            guard let regex = cache.regex(patternBytes) else { return false }
            // GRDB read text as a C string, which repairs invalid UTF-8; the matcher needs it valid.
            guard let text = bytes(of: subject, upToNUL: true) else {
                return regex.matches(String(cString: sqlite3_value_text(subject)))
            }
            return regex.matches(utf8: text)
        }
    }

    /// A value's text as valid UTF-8 bytes (up to the first NUL for text, which is how it was
    /// read as a `String`), or nil when it is not valid UTF-8.
    private static func bytes(of value: OpaquePointer?, upToNUL: Bool) -> UnsafeBufferPointer<UInt8>? {
        let start = sqlite3_value_text(value)
        let count = Int(sqlite3_value_bytes(value))
        guard let start else { return count == 0 ? UnsafeBufferPointer(start: nil, count: 0) : nil }
        var end = 0
        var ascii = true
        while end < count {
            let b = start[end]
            if b == 0 && upToNUL { break }
            if b >= 0x80 { ascii = false }
            end += 1
        }
        let text = UnsafeBufferPointer(start: start, count: end)
        return ascii || String(validating: text, as: UTF8.self) != nil ? text : nil
    }

    /// Compiled patterns: a query uses one or two, for every row, so the last one is checked
    /// first, by its bytes, before any `String` is made.
    private final class PatternCache: @unchecked Sendable {
        private let lock = NSLock()
        private var compiled: [String: RegularExpression?] = [:]
        private var last: (pattern: [UInt8], regex: RegularExpression?)?

        func regex(_ pattern: UnsafeBufferPointer<UInt8>) -> RegularExpression? {
            lock.withLock {
                if let last, last.pattern.elementsEqual(pattern) { return last.regex }
                let text = String(decoding: pattern, as: UTF8.self)
                let made: RegularExpression?
                if let known = compiled[text] {
                    made = known
                } else {
                    made = try? RegularExpression(text)
                    compiled[text] = made
                }
                last = (Array(pattern), made)
                return made
            }
        }
    }
}
