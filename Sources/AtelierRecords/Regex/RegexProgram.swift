/// A compiled pattern: a Thompson NFA over Unicode scalars.
///
/// Thompson's construction (Ken Thompson, "Regular expression search algorithm", CACM 1968;
/// Russ Cox, "Regular Expression Matching Can Be Simple And Fast", 2007) turns a pattern into
/// at most a few instructions per pattern element, and simulating all threads at once over a
/// subject costs O(instructions × subject length), whatever the pattern: no backtracking.
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        /// Consume one scalar in `sets[set]`, then continue at `next`.
        case consume(set: Int32, next: Int32)
        /// Continue at both.
        case split(Int32, Int32)
        case jump(Int32)
        /// Continue at `next` when the position satisfies the assertion.
        case assert(RegexAssertion, next: Int32)
        case match
    }

    /// Patterns compiling to more instructions are refused (`RecordsError.tooLarge`): the cost of
    /// a match grows with the program, and a filter has no need for a bigger one.
    static let maxInstructions = 5_000

    private(set) var instructions: [Instruction] = []
    /// The distinct sets the program consumes from.
    private(set) var sets: [RegexCharSet] = []
    private var setIndex: [RegexCharSet: Int32] = [:]
    private(set) var start: Int32 = 0
    /// Which assertions occur, so the matcher works out only the context they need.
    private(set) var assertions: Set<RegexAssertion> = []

    init(_ pattern: String) throws(RecordsError) {
        let node = try RegexParser.parse(pattern)
        guard Self.size(of: node) <= Self.maxInstructions - 1 else {
            throw .regexTooLarge(pattern: pattern, limit: Self.maxInstructions)
        }
        let matchIndex = append(.match)
        start = emit(node, then: matchIndex)
    }

    /// Instructions `node` compiles to, saturating well above the limit.
    static func size(of node: RegexNode) -> Int {
        let cap = maxInstructions * 4
        switch node {
        case .empty: return 0
        case .scalar, .assertion: return 1
        case .sequence(let items): return min(cap, items.reduce(0) { $0 + size(of: $1) })
        case .alternation(let branches): return min(cap, branches.reduce(0) { $0 + size(of: $1) } + 2 * (branches.count - 1))
        case let .repetition(item, low, high):
            let one = size(of: item)
            if one == 0 { return 0 }
            let optional = high.map { min(cap, $0 - low) } ?? 1
            return min(cap, min(cap, low) * one + optional * (one + 1))
        }
    }

    private mutating func append(_ instruction: Instruction) -> Int32 {
        instructions.append(instruction)
        return Int32(instructions.count - 1)
    }

    /// Compiles `node` so that it continues at `next` when done; returns its entry.
    /// Emitting back to front lets every instruction know its successor when it is written.
    private mutating func emit(_ node: RegexNode, then next: Int32) -> Int32 {
        switch node {
        case .empty:
            return next
        case .scalar(let set):
            let index: Int32
            if let known = setIndex[set] { index = known } else {
                index = Int32(sets.count)
                sets.append(set)
                setIndex[set] = index
            }
            return append(.consume(set: index, next: next))
        case .assertion(let assertion):
            assertions.insert(assertion)
            return append(.assert(assertion, next: next))
        case .sequence(let items):
            var entry = next
            for item in items.reversed() { entry = emit(item, then: entry) }
            return entry
        case .alternation(let branches):
            var entry = emit(branches[branches.count - 1], then: next)
            for branch in branches.dropLast().reversed() {
                entry = append(.split(emit(branch, then: next), entry))
            }
            return entry
        case let .repetition(item, low, high):
            if Self.size(of: item) == 0 { return next }
            var entry = next
            if let high {
                // (item (item (…)?)?)?: each optional copy may stop the repetition.
                for _ in 0..<(high - low) { entry = append(.split(emit(item, then: entry), next)) }
            } else {
                // A loop: split → item → back to the split.
                let loop = append(.split(-1, next))
                let body = emit(item, then: loop)
                instructions[Int(loop)] = .split(body, next)
                entry = loop
            }
            for _ in 0..<low { entry = emit(item, then: entry) }
            return entry
        }
    }
}
