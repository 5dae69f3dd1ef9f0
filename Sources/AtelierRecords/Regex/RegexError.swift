/// Why a pattern cannot become a `RegularExpression`.
///
/// Every case names the pattern, so that the message alone tells a user which `--where`
/// condition to fix.
public enum RegexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern is not a regular expression in ICU's syntax (an unclosed group, a quantifier
    /// with nothing to repeat, a reversed range…). `offset` counts Unicode scalars from 0.
    case syntax(pattern: String, offset: Int, reason: String)
    /// The pattern uses a construct (a backreference, a lookaround…) that no matcher with a
    /// linear time bound can run, or that this one does not implement.
    case unsupported(pattern: String, construct: String, reason: String)
    /// The pattern would compile to more than `limit` instructions (usually through large
    /// `{m,n}` counts), more than a matcher should hold for one condition.
    case tooLarge(pattern: String, limit: Int)

    public var description: String {
        switch self {
        case let .syntax(pattern, offset, reason):
            return "invalid regular expression \"\(pattern)\": \(reason) at character \(offset + 1)"
        case let .unsupported(pattern, construct, reason):
            return "regular expression \"\(pattern)\" uses \(construct), which \(reason); rewrite the pattern without it"
        case let .tooLarge(pattern, limit):
            return "regular expression \"\(pattern)\" is too large (more than \(limit) states once its repetitions are expanded); use smaller {m,n} counts"
        }
    }
}
