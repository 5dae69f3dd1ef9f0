import Foundation

/// The words a field may take (categories, seasons, states…), with forgiving input (case, spaces
/// and dashes are ignored: "One Piece" reads as `onePiece`), the other spellings real data uses
/// (aliases), and a "did you mean" suggestion for anything else.
///
/// A closed vocabulary refuses an unknown word. An open one (subcategories, fabrics: a wardrobe
/// exported from another app names kinds and cloths no list foresees) keeps it as given; the words
/// it knows bring what is known of them (a subcategory's category and wear limit, a fabric's group).
public struct Vocabulary: Sendable {
    public let name: String
    public let values: [String]
    /// Whether a word outside `values` and the aliases is kept as given rather than refused.
    public let isOpen: Bool
    /// Every other spelling with the value it stands for, in the order given (for the docs).
    public let aliases: [(alias: String, value: String)]
    /// Every value's and alias's key (`key`), and the value each stands for.
    private let keys: NameIndex
    private let valueOfKey: [String]
    /// The values themselves: most input is already canonical, and a set lookup is far cheaper
    /// than folding the word into its key (which matters on a million-record import).
    private let exact: NameIndex
    /// Per value, its key's bytes and whether it says "not", for suggestions (made once: a
    /// million-line import may refuse half its records).
    private let valueKeys: [[UInt8]]
    private let valueNegates: [Bool]

    public init(_ name: String, _ values: [String], aliases: KeyValuePairs<String, String> = [:], open: Bool = false) {
        self.init(name, values, aliasList: aliases.map { ($0.key, $0.value) }, open: open)
    }

    public init(_ name: String, _ values: [String], aliasList aliases: [(alias: String, value: String)], open: Bool = false) {
        self.name = name
        self.values = values
        self.isOpen = open
        self.aliases = aliases
        var map: [String: String] = [:]
        for value in values { map[Self.key(value)] = value }
        for (alias, value) in aliases {
            precondition(values.contains(value), "alias \(alias) of \(name) names no value (\(value))")
            precondition(map[Self.key(alias)].map { $0 == value } ?? true, "alias \(alias) of \(name) folds onto another value")
            map[Self.key(alias)] = value
        }
        keys = NameIndex(Array(map.keys))
        valueOfKey = Array(map.values)
        exact = NameIndex(values)
        valueKeys = values.map { Array(Self.key($0).utf8) }
        valueNegates = values.map(Self.negates)
    }

    /// Folds case and drops everything but letters and digits: the spelling-insensitive key.
    /// ASCII words (nearly all) are folded byte by byte; others go through Unicode lowercasing,
    /// which can bring a letter into a–z (the Kelvin sign becomes k).
    static func key(_ word: String) -> String {
        var word = word
        if let folded = word.withUTF8({ bytes -> String? in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out -> String? in
                var count = 0
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "0") ... UInt8(ascii: "9"): out[count] = byte
                    case UInt8(ascii: "A") ... UInt8(ascii: "Z"): out[count] = byte | 0x20
                    case 0x80...: return nil
                    default: continue
                    }
                    count += 1
                }
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<count]), as: UTF8.self)
            }
        }) {
            return folded
        }
        return String(String.UnicodeScalarView(word.lowercased().unicodeScalars.filter {
            ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9")
        }))
    }

    /// The value whose key is `word`'s, if any.
    private func value(byKeyOf word: String) -> String? {
        keys.position(of: Self.key(word)).map { valueOfKey[$0] }
    }

    /// Whether `word` is one of the values or a spelling of one.
    public func contains(_ word: String) -> Bool { exact.contains(word) || value(byKeyOf: word) != nil }

    /// Whether `word` is one of the values as spelled canonically (what a stored record holds).
    public func isKnownValue(_ word: String) -> Bool { exact.contains(word) }

    /// The canonical spelling of `word`. An unknown word is, in an open vocabulary, kept (without
    /// the spaces around it); in a closed one, an error that names the nearest valid value.
    public func canonical(_ word: String) throws(RecordsError) -> String {
        if exact.contains(word) { return word }
        if let value = value(byKeyOf: word) { return value }
        if isOpen {
            let kept = word.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !kept.isEmpty else { throw RecordsError.field("an empty \(name) is no \(name)") }
            return kept
        }
        // As JSON, shortened: the word comes from the input, and its control characters must
        // not reach a terminal.
        var message = "unknown \(name) \(RecordSchema.preview(.string(word)))"
        if let suggestion = suggestion(for: word) {
            message += "; did you mean \"\(suggestion)\"?"
        } else if values.count <= 12 {
            message += " (expected one of: \(values.joined(separator: ", ")))"
        } else {
            message += " (see atelier(7) for the list)"
        }
        throw RecordsError.field(message)
    }

    /// The closest value by edit distance, when it is close enough to be a plausible typo, and
    /// never one that says the opposite: a word that negates ("no", "not", "non-", "don't") is
    /// offered only values that negate, and a word that does not only values that do not, so
    /// `bleach-ok` never gets "did you mean bleach-no?".
    public func suggestion(for word: String) -> String? {
        let target = Array((Self.key(word).isEmpty ? word.lowercased() : Self.key(word)).utf8)
        let negates = Self.negates(word)
        var best: (value: String, distance: Int)? = nil
        for (index, value) in values.enumerated() where valueNegates[index] == negates {
            let d = Self.editDistance(target, valueKeys[index])
            if best == nil || d < best!.distance { best = (value, d) }
        }
        // An open vocabulary keeps words it does not know, most of them real ("kilt" is not a
        // misspelt "skirt"), so it suggests only for what is surely a slip of the keys.
        let limit = isOpen ? max(1, target.count / 4) : max(2, target.count / 3)
        guard let best, best.distance <= limit else { return nil }
        return best.value
    }

    /// Whether a word says "not": one of its parts (split at anything but letters and digits,
    /// and where camelCase starts a new word) is a negation, or starts with "non". Apostrophes
    /// join ("don't" is "dont"). Bytes, not Characters: it runs for every refused record.
    static func negates(_ word: String) -> Bool {
        var part: [UInt8] = []
        var previousIsLower = false
        for byte in word.utf8 where byte != UInt8(ascii: "'") {
            let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            // Bytes of other scripts belong to the part they are in (their letters say no "no").
            let isWordByte = isUpper || isLower || isDigit || byte >= 0x80
            if !isWordByte || (isUpper && previousIsLower) {
                if isNegation(part) { return true }
                part.removeAll(keepingCapacity: true)
            }
            if isWordByte { part.append(isUpper ? byte + 32 : byte) }
            previousIsLower = isLower
        }
        return isNegation(part)
    }

    private static func isNegation(_ part: [UInt8]) -> Bool {
        if negations.contains(part) { return true }
        // "non-chlorine", "nonchlorine"; not "none".
        return part.count > 3 && part.starts(with: Array("non".utf8)) && part != Array("none".utf8)
    }

    private static let negations: Set<[UInt8]> = Set(["no", "not", "non", "dont", "never", "without", "nothing"].map { Array($0.utf8) })

    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                // Transposition of neighbours counts as one edit ("otuerwear").
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous[j - 1])
                }
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
