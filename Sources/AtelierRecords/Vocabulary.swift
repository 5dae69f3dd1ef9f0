/// A closed set of words a field may take (categories, seasons, states…), with forgiving input
/// (case, spaces and dashes are ignored: "One Piece" reads as `onePiece`) and a "did you mean"
/// suggestion for anything else.
public struct Vocabulary: Sendable {
    public let name: String
    public let values: [String]
    private let canonicalByKey: [String: String]
    /// The values themselves: most input is already canonical, and a set lookup is far cheaper
    /// than folding the word into its key (which matters on a million-record import).
    private let exact: Set<String>

    public init(_ name: String, _ values: [String], aliases: [String: String] = [:]) {
        self.name = name
        self.values = values
        var map: [String: String] = [:]
        for value in values { map[Self.key(value)] = value }
        for (alias, value) in aliases { map[Self.key(alias)] = value }
        self.canonicalByKey = map
        exact = Set(values)
    }

    /// Folds case and drops everything but letters and digits: the spelling-insensitive key.
    static func key(_ word: String) -> String {
        String(String.UnicodeScalarView(word.lowercased().unicodeScalars.filter {
            ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9")
        }))
    }

    public func contains(_ word: String) -> Bool { exact.contains(word) || canonicalByKey[Self.key(word)] != nil }

    /// The canonical spelling of `word`, or an error that names the nearest valid value.
    public func canonical(_ word: String) throws(RecordsError) -> String {
        if exact.contains(word) { return word }
        if let value = canonicalByKey[Self.key(word)] { return value }
        var message = "unknown \(name) \"\(word)\""
        if let suggestion = suggestion(for: word) {
            message += "; did you mean \"\(suggestion)\"?"
        } else if values.count <= 12 {
            message += " (expected one of: \(values.joined(separator: ", ")))"
        } else {
            message += " (see atelier(7) for the list)"
        }
        throw RecordsError.field(message)
    }

    /// The closest value by edit distance, when it is close enough to be a plausible typo.
    public func suggestion(for word: String) -> String? {
        let target = Array(Self.key(word).isEmpty ? word.lowercased() : Self.key(word))
        var best: (value: String, distance: Int)? = nil
        for value in values {
            let d = Self.editDistance(target, Array(Self.key(value)))
            if best == nil || d < best!.distance { best = (value, d) }
        }
        guard let best, best.distance <= max(2, target.count / 3) else { return nil }
        return best.value
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
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
