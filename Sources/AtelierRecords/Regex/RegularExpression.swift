import Foundation

/// A regular expression in ICU's syntax (the one `NSRegularExpression` reads), answering
/// whether a text contains a match in time linear in the text's length, whatever the pattern.
///
/// `NSRegularExpression` backtracks, so a pattern like `(a+)+$` takes exponential time on a
/// line of `a`s; this one runs a Thompson NFA through a lazily built DFA (see `RegexMatcher`)
/// and refuses, when it is made, what such a matcher cannot run (backreferences, lookaround,
/// possessive quantifiers; see `RegexParser`). Matching is on Unicode scalars: `.` is one
/// scalar. `(?i)` folds case scalar by scalar (simple case folding).
///
/// Safe to share between threads: matches take turns on one cache.
public final class RegularExpression: @unchecked Sendable, CustomStringConvertible {
    public let pattern: String
    private let matcher: RegexMatcher
    private let lock = NSLock()

    /// Compiles `pattern`; throws when it is not a regular expression, uses a construct that
    /// cannot be matched in linear time, or expands to too large a program.
    public init(_ pattern: String) throws(RecordsError) {
        self.pattern = pattern
        matcher = RegexMatcher(try RegexProgram(pattern))
    }

    /// Whether `text` contains a match: what `NSRegularExpression.firstMatch(in:range:) != nil`
    /// answers over the whole text.
    public func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches(utf8: $0) }
    }

    /// Whether the text whose UTF-8 bytes these are contains a match. The bytes must be valid
    /// UTF-8 (as a `String`'s are): for callers holding bytes, such as SQLite's `REGEXP`, that
    /// would otherwise make a `String` per value.
    public func matches(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return matcher.matches(text)
    }

    public var description: String { pattern }
}
