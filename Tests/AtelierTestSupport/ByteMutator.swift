import AtelierRecords

/// Random edits of valid inputs, the seeded fuzz tests' way into the corners of a parser: one to
/// `maxEdits` edits, each a cut, a byte overwritten or a bit flipped, one of the format's
/// `tokens` inserted or written over what is there, a few bytes deleted or inserted, or a run
/// repeated. (The libFuzzer harnesses compile this file too: fuzz/run.sh.)
public struct ByteMutator: Sendable {
    /// Byte strings that mean something to the format under test (delimiters, escapes, lengths).
    public var tokens: [[UInt8]]
    /// The longest run that an edit repeats.
    public var longestRepeat: Int

    public init(tokens: [[UInt8]], longestRepeat: Int = 16) {
        precondition(!tokens.isEmpty && longestRepeat > 0)
        self.tokens = tokens
        self.longestRepeat = longestRepeat
    }

    /// `input` with one to `maxEdits` random edits.
    public func mutate(_ input: [UInt8], _ random: inout SplitMix64, maxEdits: Int = 3) -> [UInt8] {
        var bytes = input
        for _ in 0 ... random.below(maxEdits) {
            let at = random.below(bytes.count + 1)
            switch random.below(9) {
            case 0: bytes.removeSubrange(at...)
            case 1 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 2 where at < bytes.count: bytes[at] ^= 1 << random.below(8)
            case 3, 4: bytes.insert(contentsOf: random.pick(tokens), at: at)
            case 5 where at < bytes.count:
                let token = random.pick(tokens)
                bytes.replaceSubrange(at ..< min(bytes.count, at + token.count), with: token)
            case 6: bytes.removeSubrange(at ..< min(bytes.count, at + 1 + random.below(4)))
            case 7: bytes.insert(contentsOf: random.bytes(1 + random.below(8)), at: at)
            default:
                let end = min(bytes.count, at + 1 + random.below(longestRepeat))
                bytes.insert(contentsOf: bytes[at ..< end], at: at)
            }
        }
        return bytes
    }
}
