/// Character classes: `[abc]`, `[^a-z]`, `[\d_]`.
extension RegexParser {
    /// A class, after its `[`.
    mutating func parseSet() throws(RecordsError) -> RegexCharSet {
        let open = position - 1
        var set = RegexCharSet(items: [], caseInsensitive: caseInsensitive)
        if peek == ascii("^") {
            set.negated = true
            position += 1
        }
        if peek == ascii(":") {
            throw unsupported("a POSIX class (\"[:name:]\")", "atelier's matcher does not implement (\\d, \\w, \\s and [ranges] work)")
        }
        var first = true
        while true {
            guard let c = peek else { throw syntax("missing \"]\" to close the class opened", at: open) }
            if c == ascii("]") && !first { position += 1; break }
            first = false
            if c == ascii("[") {
                throw unsupported("a class inside a class (\"[…[…]…]\")", "atelier's matcher does not implement (write \\[ for the character)")
            }
            if c == ascii("&") && peek(1) == ascii("&") {
                throw unsupported("class intersection (\"&&\")", "atelier's matcher does not implement")
            }
            if c == ascii("-") && peek(1) == ascii("-") {
                throw unsupported("class difference (\"--\")", "atelier's matcher does not implement (write \\- for the character)")
            }
            let elementStart = position
            let element = try parseSetElement()
            guard case .scalar(let low) = element else {
                if case .item(let item) = element { set.items.append(item) }
                if case .quoted(let text) = element { set.items.append(contentsOf: text.map { .range($0, $0) }) }
                continue
            }
            // `a-z`; a `-` before the closing `]` is the character itself.
            guard peek == ascii("-"), let after = peek(1), after != ascii("]") else {
                set.items.append(.range(low, low))
                continue
            }
            if after == ascii("-") {
                throw unsupported("class difference (\"--\")", "atelier's matcher does not implement (write \\- for the character)")
            }
            position += 1
            guard case .scalar(let high) = try parseSetElement() else {
                throw syntax("a range must end with a single character", at: elementStart)
            }
            guard low <= high else { throw syntax("the range's end comes before its start", at: elementStart) }
            set.items.append(.range(low, high))
        }
        return set
    }

    /// One character or escape inside a class.
    private mutating func parseSetElement() throws(RecordsError) -> Escape {
        let c = scalars[position]
        position += 1
        guard c == ascii("\\") else { return .scalar(c) }
        switch try readEscape(inSet: true) {
        case .assertion, .lineBreak:
            throw syntax("this escape has no meaning inside a class", at: position - 2)
        case let escape:
            return escape
        }
    }
}
