/// Backslash escapes, outside and inside character classes.
extension RegexParser {
    /// What an escape stands for.
    enum Escape {
        case scalar(UInt32)
        case item(RegexSetItem)
        case assertion(RegexAssertion)
        /// `\Q…\E`: literal text.
        case quoted([UInt32])
        /// `\R`: a line break, `\r\n` (never split) or one line terminator.
        case lineBreak
    }

    /// An escape outside a class, after the backslash.
    mutating func parseEscape() throws(RecordsError) -> (nodes: [RegexNode], repeatable: Bool) {
        switch try readEscape(inSet: false) {
        case .scalar(let value): return ([literal(value)], true)
        case .item(let item): return ([.scalar(RegexCharSet(items: [item]))], true)
        case .assertion(let assertion): return ([.assertion(assertion)], false)
        case .quoted(let text): return (text.map(literal), true)
        case .lineBreak:
            // \r\n, or \r not before \n, or another line terminator.
            let crlf = RegexNode.sequence([literal(0x0D), literal(0x0A)])
            let cr = RegexNode.sequence([literal(0x0D), .assertion(.notBeforeLineFeed)])
            let others = RegexCharSet(items: [.range(0x0A, 0x0C), .range(0x85, 0x85), .range(0x2028, 0x2029)])
            return ([.alternation([crlf, cr, .scalar(others)])], true)
        }
    }

    /// Reads one escape after its backslash.
    mutating func readEscape(inSet: Bool) throws(RecordsError) -> Escape {
        let backslash = position - 1
        guard let c = peek else { throw syntax("\"\\\" at the end of the pattern (write \\\\ for a backslash)", at: backslash) }
        position += 1
        switch c {
        case ascii("a"): return .scalar(0x07)
        case ascii("e"): return .scalar(0x1B)
        case ascii("f"): return .scalar(0x0C)
        case ascii("n"): return .scalar(0x0A)
        case ascii("r"): return .scalar(0x0D)
        case ascii("t"): return .scalar(0x09)
        case ascii("d"), ascii("D"): return .item(.digit(negated: c == ascii("D")))
        case ascii("w"), ascii("W"): return .item(.word(negated: c == ascii("W")))
        case ascii("s"), ascii("S"): return .item(.space(negated: c == ascii("S")))
        case ascii("h"), ascii("H"): return .item(.horizontalSpace(negated: c == ascii("H")))
        case ascii("v"), ascii("V"): return .item(.lineTerminator(negated: c == ascii("V")))
        case ascii("b") where inSet: return .scalar(c)  // ICU reads [\b] as [b]
        case ascii("b"): return .assertion(.wordBoundary)
        case ascii("B"): return .assertion(.notWordBoundary)
        case ascii("A"): return .assertion(.startOfInput)
        case ascii("z"): return .assertion(.endOfInput)
        case ascii("Z"): return .assertion(.endOfInputOrFinalLineTerminator)
        case ascii("R"): return .lineBreak
        case ascii("Q"):
            var text: [UInt32] = []
            while let q = peek, !(q == ascii("\\") && peek(1) == ascii("E")) {
                text.append(q)
                position += 1
            }
            if peek != nil { position += 2 }
            return .quoted(text)
        case ascii("0"):
            var value: UInt32 = 0
            var digits = 0
            while digits < 3, let d = peek, d >= ascii("0"), d <= ascii("7"), value * 8 + (d - ascii("0")) <= 0o377 {
                value = value * 8 + (d - ascii("0"))
                digits += 1
                position += 1
            }
            guard digits > 0 else { throw syntax("\"\\0\" must be followed by octal digits", at: backslash) }
            return .scalar(value)
        case ascii("1")...ascii("9"):
            throw unsupported("a backreference (\"\\\(Character(Unicode.Scalar(c)!))\")", "cannot be matched in linear time")
        case ascii("k"):
            throw unsupported("a named backreference (\"\\k<…>\")", "cannot be matched in linear time")
        case ascii("x"): return .scalar(try readHexEscape(backslash: backslash))
        case ascii("u"), ascii("U"): return .scalar(try readHex(digits: c == ascii("u") ? 4 : 8, backslash: backslash))
        case ascii("c"):
            guard let control = peek else { return .scalar(c) }
            position += 1
            return .scalar(control & 0x1F)
        case ascii("G"):
            throw unsupported("\"\\G\" (the end of the previous match)", "a filter, matching each value once, has no use for")
        case ascii("p"), ascii("P"):
            throw unsupported("a Unicode property class (\"\\\(Character(Unicode.Scalar(c)!)){…}\")", "atelier's matcher does not implement (\\d, \\w, \\s and [ranges] work)")
        case ascii("N"):
            throw unsupported("a named character (\"\\N{…}\")", "atelier's matcher does not implement (write \\x{hex} instead)")
        case ascii("X"):
            throw unsupported("\"\\X\" (a grapheme cluster)", "atelier's matcher does not implement")
        default:
            // Any other escaped character stands for itself, as in ICU.
            return .scalar(c)
        }
    }

    /// `\xhh` (one or two hex digits) or `\x{h…}` (one to six), after the `x`.
    private mutating func readHexEscape(backslash: Int) throws(RecordsError) -> UInt32 {
        let bad = syntax("\"\\x\" must be followed by one or two hex digits, or by {hex}", at: backslash)
        if peek == ascii("{") {
            position += 1
            var value: UInt32 = 0
            var digits = 0
            while let d = peek.flatMap(hexValue) {
                value = value &* 16 &+ d
                digits += 1
                position += 1
                if digits > 6 { throw bad }
            }
            guard digits > 0, peek == ascii("}"), value <= 0x10FFFF else { throw bad }
            position += 1
            return value
        }
        guard let first = peek.flatMap(hexValue) else { throw bad }
        position += 1
        guard let second = peek.flatMap(hexValue) else { return first }
        position += 1
        return first * 16 + second
    }

    /// Exactly `digits` hex digits (`\uhhhh`, `\Uhhhhhhhh`).
    private mutating func readHex(digits: Int, backslash: Int) throws(RecordsError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let d = peek.flatMap(hexValue) else {
                throw syntax("\"\\\(digits == 4 ? "u" : "U")\" must be followed by \(digits) hex digits", at: backslash)
            }
            value = value &* 16 &+ d
            position += 1
        }
        guard value <= 0x10FFFF else { throw syntax("\\U\(String(value, radix: 16)) is beyond Unicode", at: backslash) }
        return value
    }

    private func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case ascii("0")...ascii("9"): return c - ascii("0")
        case ascii("a")...ascii("f"): return c - ascii("a") + 10
        case ascii("A")...ascii("F"): return c - ascii("A") + 10
        default: return nil
        }
    }
}
