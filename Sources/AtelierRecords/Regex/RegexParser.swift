/// Reads a pattern in ICU's syntax (the one `NSRegularExpression` takes) into a `RegexNode`,
/// refusing what a linear-time matcher cannot run.
///
/// Supported: literals and escapes, `.`, classes `[…]`, `\d \w \s \h \v` and their negations,
/// `\R`, anchors `^ $ \A \z \Z \b \B`, groups `(…)`, `(?:…)`, `(?<name>…)`, comments `(?#…)`,
/// alternation, greedy and lazy quantifiers, and the flags `i` and `s`. Refused: backreferences,
/// lookaround, atomic groups and possessive quantifiers, `\G`, `\p{…}`, `\X`, `\N{…}`, nested
/// classes and class set operations, and the flags `m`, `x` and `w`.
struct RegexParser {
    let pattern: String
    let scalars: [UInt32]
    var position = 0
    var caseInsensitive = false
    var dotAll = false
    private var depth = 0

    /// Deeper nesting is refused, so that neither parsing nor compiling can exhaust the stack.
    static let maxDepth = 200

    static func parse(_ pattern: String) throws(RecordsError) -> RegexNode {
        var parser = RegexParser(pattern: pattern, scalars: pattern.unicodeScalars.map(\.value))
        let node = try parser.parseAlternation()
        if parser.position < parser.scalars.count { throw parser.syntax("\")\" without a matching \"(\"") }
        return node
    }

    var peek: UInt32? { position < scalars.count ? scalars[position] : nil }

    func peek(_ ahead: Int) -> UInt32? { position + ahead < scalars.count ? scalars[position + ahead] : nil }

    func syntax(_ reason: String, at offset: Int? = nil) -> RecordsError {
        .regexSyntax(pattern: pattern, offset: min(offset ?? position, scalars.count), reason: reason)
    }

    func unsupported(_ construct: String, _ reason: String) -> RecordsError {
        .regexUnsupported(pattern: pattern, construct: construct, reason: reason)
    }

    mutating func parseAlternation() throws(RecordsError) -> RegexNode {
        var branches = [try parseSequence()]
        while peek == ascii("|") {
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(RecordsError) -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek, c != ascii("|"), c != ascii(")") {
            let start = position
            let atom = try parseAtom()
            items.append(contentsOf: atom.nodes.dropLast())
            guard let last = atom.nodes.last else { continue }
            items.append(try parseQuantifier(on: last, repeatable: atom.repeatable, atomStart: start))
        }
        return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .sequence(items))
    }

    /// What one atom adds to a sequence: a quantifier after it applies to the last node only
    /// (`\Qab\E*` repeats the `b`, as in ICU).
    private struct Atom {
        var nodes: [RegexNode]
        var repeatable = true
    }

    private mutating func parseAtom() throws(RecordsError) -> Atom {
        let c = scalars[position]
        position += 1
        switch c {
        case ascii("("): return try parseGroup()
        case ascii("["): return Atom(nodes: [.scalar(try parseSet())])
        case ascii("."): return Atom(nodes: [.scalar(.any(dotAll: dotAll))])
        case ascii("^"): return Atom(nodes: [.assertion(.startOfInput)])
        case ascii("$"): return Atom(nodes: [.assertion(.endOfInputOrFinalLineTerminator)])
        case ascii("\\"):
            let escape = try parseEscape()
            return Atom(nodes: escape.nodes, repeatable: escape.repeatable)
        case ascii("*"), ascii("+"), ascii("?"), ascii("{"):
            throw syntax("quantifier \"\(Character(Unicode.Scalar(c)!))\" with nothing to repeat", at: position - 1)
        case ascii("}"): throw syntax("\"}\" without a matching \"{\" (write \\} for the character)", at: position - 1)
        default: return Atom(nodes: [literal(c)])
        }
    }

    func literal(_ value: UInt32) -> RegexNode {
        .scalar(.literal(value, caseInsensitive: caseInsensitive))
    }

    // MARK: Groups

    private mutating func parseGroup() throws(RecordsError) -> Atom {
        let open = position - 1
        guard depth < Self.maxDepth else {
            throw unsupported("groups nested more than \(Self.maxDepth) deep", "is more than a filter needs")
        }
        // Flags set inside a group, by (?i:…) or (?i) in its body, end with it.
        let saved = (caseInsensitive, dotAll)
        if peek == ascii("?") {
            position += 1
            switch peek {
            case ascii(":"): position += 1
            case ascii("="), ascii("!"):
                throw unsupported("a lookahead (\"(?\(Character(Unicode.Scalar(peek!)!))…)\")", "a linear-time matcher does not support")
            case ascii(">"):
                throw unsupported("an atomic group (\"(?>…)\")", "cannot be matched in linear time (it depends on the order of backtracking)")
            case ascii("#"):
                guard let end = scalars[position...].firstIndex(of: ascii(")")) else { throw syntax("unterminated comment \"(?#\"", at: open) }
                position = end + 1
                return Atom(nodes: [], repeatable: false)
            case ascii("<"):
                if peek(1) == ascii("=") || peek(1) == ascii("!") {
                    throw unsupported("a lookbehind (\"(?<\(Character(Unicode.Scalar(peek(1)!)!))…)\")", "a linear-time matcher does not support")
                }
                try skipGroupName()
            default:
                if try parseFlags() { return Atom(nodes: [], repeatable: false) }
            }
        }
        depth += 1
        let body = try parseAlternation()
        depth -= 1
        (caseInsensitive, dotAll) = saved
        guard peek == ascii(")") else { throw syntax("missing \")\" to close the group opened", at: open) }
        position += 1
        return Atom(nodes: [body])
    }

    /// `<name>` of a named group; the name does not matter here, but ICU's rules for it do.
    private mutating func skipGroupName() throws(RecordsError) {
        position += 1
        let start = position
        while let c = peek, isASCIILetter(c) || (position > start && c >= ascii("0") && c <= ascii("9")) { position += 1 }
        guard position > start, peek == ascii(">") else { throw syntax("a group name must be ASCII letters and digits, starting with a letter, then \">\"") }
        position += 1
    }

    /// `(?flags)` or the start of `(?flags:…)`, after the `(?`, setting the flags. Returns true
    /// for `(?flags)`, whose flags apply to the rest of the enclosing group, false when a group
    /// body follows.
    private mutating func parseFlags() throws(RecordsError) -> Bool {
        var on = true
        var sawAny = false
        var (insensitive, all) = (caseInsensitive, dotAll)
        while let c = peek {
            position += 1
            switch c {
            case ascii("-"): on = false; sawAny = true
            case ascii("i"): insensitive = on; sawAny = true
            case ascii("s"): all = on; sawAny = true
            case ascii("m"), ascii("x"), ascii("w"):
                sawAny = true
                if on {
                    let name = ["m": "multi-line mode", "x": "free-spacing mode", "w": "Unicode word boundaries"][String(Character(Unicode.Scalar(c)!))]!
                    throw unsupported("the flag \"\(Character(Unicode.Scalar(c)!))\" (\(name))", "atelier's matcher does not implement")
                }
            case ascii(")"):
                guard sawAny else { throw syntax("empty flag group \"(?)\"", at: position - 1) }
                caseInsensitive = insensitive
                dotAll = all
                return true
            case ascii(":"):
                caseInsensitive = insensitive
                dotAll = all
                return false
            default:
                throw syntax("unknown group or flag \"(?\(Character(Unicode.Scalar(c)!))\"", at: position - 1)
            }
        }
        throw syntax("unterminated group \"(?\"")
    }

    // MARK: Quantifiers

    private mutating func parseQuantifier(on node: RegexNode, repeatable: Bool, atomStart: Int) throws(RecordsError) -> RegexNode {
        guard let c = peek, c == ascii("*") || c == ascii("+") || c == ascii("?") || c == ascii("{") else { return node }
        let quantifierStart = position
        guard repeatable else { throw syntax("an assertion cannot be repeated", at: quantifierStart) }
        position += 1
        var (low, high): (Int, Int?)
        switch c {
        case ascii("*"): (low, high) = (0, nil)
        case ascii("+"): (low, high) = (1, nil)
        case ascii("?"): (low, high) = (0, 1)
        default: (low, high) = try parseInterval(openedAt: quantifierStart)
        }
        if peek == ascii("?") {
            position += 1  // lazy: the same matches exist
        } else if peek == ascii("+") {
            throw unsupported("a possessive quantifier (\"\(String(String.UnicodeScalarView(scalars[quantifierStart...position].compactMap(Unicode.Scalar.init))))\")",
                              "cannot be matched in linear time (it depends on the order of backtracking)")
        }
        if let next = peek, next == ascii("*") || next == ascii("+") || next == ascii("?") || next == ascii("{") {
            throw syntax("a quantifier cannot follow another; put the first in a group, like (a*)*", at: position)
        }
        return .repetition(node, min: low, max: high)
    }

    /// `{m}`, `{m,}` or `{m,n}`, after the `{`.
    private mutating func parseInterval(openedAt open: Int) throws(RecordsError) -> (Int, Int?) {
        let bad = syntax("a repetition must read {m}, {m,} or {m,n} with m ≤ n", at: open)
        guard let low = parseCount() else { throw bad }
        var high: Int? = low
        if peek == ascii(",") {
            position += 1
            high = peek == ascii("}") ? nil : parseCount()
            if high == nil && peek != ascii("}") { throw bad }
        }
        guard peek == ascii("}") else { throw bad }
        position += 1
        if let high, high < low { throw bad }
        return (low, high)
    }

    /// Decimal digits, or nil when there are none or they exceed what ICU accepts (2³¹ − 1).
    private mutating func parseCount() -> Int? {
        let start = position
        var value = 0
        while let c = peek, c >= ascii("0"), c <= ascii("9") {
            value = min(value * 10 + Int(c - ascii("0")), Int(Int32.max) + 1)
            position += 1
        }
        return position > start && value <= Int(Int32.max) ? value : nil
    }
}

/// The scalar value of an ASCII character, for readable comparisons.
@inline(__always) func ascii(_ c: Unicode.Scalar) -> UInt32 { c.value }

func isASCIILetter(_ c: UInt32) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
