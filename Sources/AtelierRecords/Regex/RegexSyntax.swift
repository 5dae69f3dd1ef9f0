/// A parsed pattern: what `RegexParser` reads and `RegexProgram` compiles.
///
/// Captures and laziness are gone by this point: the matcher only answers whether a subject
/// contains a match, and neither changes that.
indirect enum RegexNode: Sendable {
    case empty
    /// One Unicode scalar from a set.
    case scalar(RegexCharSet)
    case assertion(RegexAssertion)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `max == nil` repeats without bound.
    case repetition(RegexNode, min: Int, max: Int?)
}

/// A zero-width condition on the position between two scalars.
enum RegexAssertion: Sendable, Hashable {
    /// `^` (without the `m` flag) and `\A`.
    case startOfInput
    /// `\z`.
    case endOfInput
    /// `$` (without the `m` flag) and `\Z`: the end, or before a line terminator that ends the
    /// input (`\r\n` counting as one).
    case endOfInputOrFinalLineTerminator
    /// `\b`, with ICU's rules for combining marks and format characters.
    case wordBoundary
    /// `\B`.
    case notWordBoundary
    /// Not before a `\n`: how `\R` keeps `\r\n` whole, as ICU does (`\R{2}` does not match
    /// `\r\n`).
    case notBeforeLineFeed
}

/// One member of a character set: a range of scalars or one of ICU's named classes.
enum RegexSetItem: Sendable, Hashable {
    case range(UInt32, UInt32)
    case word(negated: Bool)
    case digit(negated: Bool)
    case space(negated: Bool)
    case horizontalSpace(negated: Bool)
    /// `\v`, and what `.` excludes.
    case lineTerminator(negated: Bool)

    func contains(_ value: UInt32) -> Bool {
        switch self {
        case let .range(low, high): return value >= low && value <= high
        case let .word(negated): return RegexCharacters.isWord(value) != negated
        case let .digit(negated): return RegexCharacters.isDigit(value) != negated
        case let .space(negated): return RegexCharacters.isSpace(value) != negated
        case let .horizontalSpace(negated): return RegexCharacters.isHorizontalSpace(value) != negated
        case let .lineTerminator(negated): return RegexCharacters.isLineTerminator(value) != negated
        }
    }
}

/// The scalars one step of a pattern may consume: a literal, `.`, `\d`, `[a-z]` and so on.
struct RegexCharSet: Sendable, Hashable {
    var items: [RegexSetItem]
    /// `[^…]`: complemented after case closing, as ICU does (`(?i)[^k]` matches neither `k` nor `K`).
    var negated = false
    /// Matches every scalar that folds like a member (`(?i)`).
    var caseInsensitive = false

    static func literal(_ value: UInt32, caseInsensitive: Bool) -> RegexCharSet {
        let folds = caseInsensitive && (Unicode.Scalar(value)?.properties.changesWhenCaseMapped ?? false)
        return RegexCharSet(items: [.range(value, value)], caseInsensitive: folds)
    }

    /// `.`: anything but a line terminator, or anything at all with the `s` flag.
    static func any(dotAll: Bool) -> RegexCharSet {
        RegexCharSet(items: dotAll ? [] : [.lineTerminator(negated: false)], negated: true)
    }

    func contains(_ value: UInt32) -> Bool {
        var found = items.contains { $0.contains(value) }
        if !found && caseInsensitive {
            found = RegexCharacters.caseEquivalents(value).contains { other in items.contains { $0.contains(other) } }
        }
        return found != negated
    }
}
