import Foundation

/// A short human pairing code such as `7-crane-orbit`: a public number and secret words.
///
/// The number (1–999) is public: the receiver advertises it over DNS-SD so that the sender
/// finds the right receiver on the LAN. The words (2 by default, up to 4) are drawn uniformly
/// from the 2,048-word BIP-39 list, 11 bits each, and are the only secret; the whole canonical
/// text is the CPace password (see `passwordBytes`). The PAKE gives an attacker one online guess
/// per attempt, so 2 words (22 bits) make a single guess succeed with probability 1 in 4.2 million.
public struct PairingCode: Sendable, Hashable, CustomStringConvertible {
    /// The public numbers a code may carry.
    public static let numberRange: ClosedRange<Int> = 1...999
    /// How many words a code may have; generation uses 2 unless told otherwise.
    public static let wordCountRange: ClosedRange<Int> = 2...4
    /// The number of words `generate()` uses.
    public static let defaultWordCount = 2

    /// The public part, used by discovery.
    public let number: Int
    /// The secret words, lower case, each in `wordList`.
    public let words: [String]

    /// A code from its parts; throws `TransferError.invalidPairingCode` or `.unknownPairingWord`
    /// when the number is out of range, the word count is not allowed, or a word is not in the list.
    public init(number: Int, words: [String]) throws {
        guard Self.numberRange.contains(number) else {
            throw TransferError.invalidPairingCode("\(number)", reason: "the number must be 1 to 999")
        }
        guard Self.wordCountRange.contains(words.count) else {
            throw TransferError.invalidPairingCode(words.joined(separator: "-"), reason: "it needs 2 to 4 words, not \(words.count)")
        }
        for word in words where Self.wordIndex[word] == nil {
            throw TransferError.unknownPairingWord(word, suggestion: Self.closestWord(to: word))
        }
        self.number = number
        self.words = words
    }

    /// A fresh code from the system's cryptographically secure generator.
    public static func generate(wordCount: Int = defaultWordCount) -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        return generate(wordCount: wordCount, using: &generator)
    }

    /// A code drawn from `generator` (tests pass a seeded one; real use wants a CSPRNG).
    /// `wordCount` is clamped to `wordCountRange`.
    public static func generate(wordCount: Int = defaultWordCount, using generator: inout some RandomNumberGenerator) -> PairingCode {
        let count = min(max(wordCount, wordCountRange.lowerBound), wordCountRange.upperBound)
        let number = Int.random(in: numberRange, using: &generator)
        let words = (0..<count).map { _ in wordList[Int.random(in: 0..<wordList.count, using: &generator)] }
        // Every part is valid by construction.
        return PairingCode(unchecked: number, words: words)
    }

    /// Parses what a person typed, forgivingly: case and surrounding spaces are ignored, the
    /// parts may be separated by `-`, spaces or `_`, leading zeros of the number are fine, and a
    /// word may be shortened to a unique prefix of at least four letters (`cran-orbi`: every
    /// BIP-39 word is identified by its first four). Throws `TransferError.invalidPairingCode`
    /// for a bad shape or number and `.unknownPairingWord` naming the first unknown word.
    public init(parsing text: String) throws {
        let trimmed = text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = parts.first, !first.isEmpty else {
            throw TransferError.invalidPairingCode(text, reason: "it is empty")
        }
        guard first.utf8.count <= 4, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(first) else {
            throw TransferError.invalidPairingCode(text, reason: "it must start with a number")
        }
        guard Self.numberRange.contains(number) else {
            throw TransferError.invalidPairingCode(text, reason: "the number must be 1 to 999")
        }
        let typed = parts.dropFirst()
        guard Self.wordCountRange.contains(typed.count) else {
            throw TransferError.invalidPairingCode(text, reason: "it needs 2 to 4 words after the number, not \(typed.count)")
        }
        var words: [String] = []
        for word in typed {
            guard let known = Self.resolve(word) else {
                throw TransferError.unknownPairingWord(word, suggestion: Self.closestWord(to: word))
            }
            words.append(known)
        }
        self.init(unchecked: number, words: words)
    }

    private init(unchecked number: Int, words: [String]) {
        self.number = number
        self.words = words
    }

    /// The canonical text, `7-crane-orbit`.
    public var description: String { ([String(number)] + words).joined(separator: "-") }

    /// The secret entropy in bits: 11 per word (the number is public and adds none).
    public var entropyBits: Int { words.count * 11 }

    /// The CPace password-related string (PRS): the UTF-8 bytes of the canonical text.
    /// Binding the public number too means a code only pairs with the receiver it names.
    public var passwordBytes: [UInt8] { Array(description.utf8) }

    // MARK: Word lookup

    /// Word → index in `wordList`.
    static let wordIndex: [String: Int] = Dictionary(uniqueKeysWithValues: wordList.enumerated().map { ($1, $0) })

    /// First four letters → word (unique in BIP-39), for prefix input.
    static let wordByPrefix: [Substring: String] = Dictionary(uniqueKeysWithValues: wordList.compactMap { word in
        word.count >= 4 ? (word.prefix(4), word) : nil
    })

    /// The list word `typed` stands for: the word itself, or the single word it is a prefix of
    /// when it has at least four letters.
    static func resolve(_ typed: String) -> String? {
        if wordIndex[typed] != nil { return typed }
        guard typed.count >= 4, let word = wordByPrefix[typed.prefix(4)], word.hasPrefix(typed) else { return nil }
        return word
    }

    /// The list word nearest to `typed` by edit distance (ties: closest length, then list order),
    /// when it is at most 2 edits away.
    static func closestWord(to typed: String) -> String? {
        let target = Array(typed.utf8.prefix(16))
        guard !target.isEmpty else { return nil }
        // Fewest edits first, then the closest length (a typo more often replaces a letter).
        var best: (word: String, distance: Int, lengthGap: Int)?
        for word in wordList {
            let distance = editDistance(target, Array(word.utf8))
            let lengthGap = abs(word.utf8.count - target.count)
            if distance <= 2, (distance, lengthGap) < (best?.distance ?? 3, best?.lengthGap ?? 0) { best = (word, distance, lengthGap) }
        }
        return best?.word
    }

    /// Levenshtein distance between two short byte strings.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
