import AtelierRecords
import Foundation
import GRDB

/// SQLite's `REGEXP` operator, backed by the same `RegularExpression` matching that `--where
/// 'field~pattern'` uses on a stream (so the catalog and `atl-query -` agree, and neither can be
/// made to run for minutes by a pattern), so a regular expression on a text column can be
/// answered inside SQLite: only the matching rows are decoded, instead of every row of the table.
enum RegexpFunction {
    /// `X REGEXP Y` calls `regexp(Y, X)`: the pattern first. NULL values match nothing, and so
    /// does everything when the pattern does not compile (`FieldFilter` has refused it before
    /// any query runs).
    static func make() -> DatabaseFunction {
        let cache = PatternCache()
        return DatabaseFunction("regexp", argumentCount: 2, pure: true) { values in
            guard let pattern = String.fromDatabaseValue(values[0]) else { return nil }
            let subject: String
            switch values[1].storage {
            case .null: return nil
            case .string(let text): subject = text
            case .int64(let integer): subject = String(integer)
            case .double(let real): subject = "\(real)"
            case .blob: return false
            }
            guard let regex = cache.regex(pattern) else { return false }
            return regex.matches(subject)
        }
    }

    /// Compiled patterns: a query uses one or two, for every row.
    private final class PatternCache: @unchecked Sendable {
        private let lock = NSLock()
        private var compiled: [String: RegularExpression?] = [:]

        func regex(_ pattern: String) -> RegularExpression? {
            lock.withLock {
                if let known = compiled[pattern] { return known }
                let made = try? RegularExpression(pattern)
                compiled[pattern] = made
                return made
            }
        }
    }
}
