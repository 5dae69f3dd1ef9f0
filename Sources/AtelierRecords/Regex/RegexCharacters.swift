/// The Unicode character classes of ICU's regular expressions, on scalar values, so that this
/// matcher and `NSRegularExpression` agree on what `\w`, `\d`, `\s`, `.` and `\b` mean.
enum RegexCharacters {
    /// `\w` and the word characters of `\b`: `[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200C\u200D]`.
    static func isWord(_ value: UInt32) -> Bool {
        if value < 0x80 { return asciiWord[Int(value)] }
        guard let scalar = Unicode.Scalar(value) else { return false }
        if value == 0x200C || value == 0x200D || scalar.properties.isAlphabetic { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }

    /// `\d`: a decimal digit of any script (`\p{Nd}`).
    static func isDigit(_ value: UInt32) -> Bool {
        if value < 0x80 { return value >= 0x30 && value <= 0x39 }
        return Unicode.Scalar(value)?.properties.generalCategory == .decimalNumber
    }

    /// `\s`: `\p{White_Space}`.
    static func isSpace(_ value: UInt32) -> Bool {
        if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
        return Unicode.Scalar(value)?.properties.isWhitespace ?? false
    }

    /// `\h`: horizontal white space, `[\p{Zs}\t]`.
    static func isHorizontalSpace(_ value: UInt32) -> Bool {
        if value < 0x80 { return value == 0x20 || value == 0x09 }
        return Unicode.Scalar(value)?.properties.generalCategory == .spaceSeparator
    }

    /// What `.` does not match and `$` may stand before: `\n \v \f \r`, NEL, LS and PS (also `\v`).
    static func isLineTerminator(_ value: UInt32) -> Bool {
        (value >= 0x0A && value <= 0x0D) || value == 0x85 || value == 0x2028 || value == 0x2029
    }

    /// Characters `\b` looks through, as ICU does: a boundary never falls before one, and the
    /// character before a position is the last one that is not one of these.
    static func isBoundaryTransparent(_ value: UInt32) -> Bool {
        guard value >= 0x80, let scalar = Unicode.Scalar(value) else { return false }
        return scalar.properties.isGraphemeExtend || scalar.properties.generalCategory == .format
    }

    private static let asciiWord: [Bool] = (0..<128).map { v in
        (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
    }

    /// The simple case folding of a scalar: two scalars match case-insensitively when their
    /// foldings are equal. Built from Unicode's single-scalar case mappings (lowercase of the
    /// uppercase), with the Turkic dotless ı kept apart as CaseFolding.txt keeps it. Foldings
    /// that turn one scalar into several (`ß` → `ss`) are not made: ICU makes them for literal
    /// text, so `(?i)ss` matches `ß` there and not here.
    static func fold(_ value: UInt32) -> UInt32 {
        if value < 0x80 { return value >= 0x41 && value <= 0x5A ? value + 0x20 : value }
        guard value != 0x131, let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped else { return value }
        let upper = single(scalar.properties.uppercaseMapping) ?? scalar
        return (single(upper.properties.lowercaseMapping) ?? single(scalar.properties.lowercaseMapping) ?? scalar).value
    }

    /// Every scalar that folds as `value` does, `value` included.
    static func caseEquivalents(_ value: UInt32) -> [UInt32] {
        let folded = fold(value)
        if let known = foldingClasses[folded] { return known }
        return folded == value ? [value] : [value, folded]
    }

    /// The scalars that fold to each folding shared by more than one scalar; cased letters all
    /// lie in Unicode's first two planes. Worked out once, the first time a case-insensitive
    /// pattern meets a character outside ASCII.
    private static let foldingClasses: [UInt32: [UInt32]] = {
        var classes: [UInt32: [UInt32]] = [:]
        for value in UInt32(0)..<0x20000 {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped else { continue }
            let folded = fold(value)
            guard folded != value else { continue }
            classes[folded, default: [folded]].append(value)
        }
        return classes
    }()

    private static func single(_ text: String) -> Unicode.Scalar? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }
}
