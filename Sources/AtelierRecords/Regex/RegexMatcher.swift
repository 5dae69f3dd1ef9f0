/// Answers whether a subject contains a match of a `RegexProgram`, in time linear in the
/// subject: a Thompson simulation whose state sets are remembered as the states of a DFA built
/// lazily, one transition at a time, as RE2 does (Russ Cox, "Regular Expression Matching in the
/// Wild", 2010).
///
/// Each scalar of the subject costs one table lookup once its transition is known, and at
/// most one closure over the program (O(instructions)) when it is not, so a match costs
/// O(instructions × subject) at worst whatever the pattern. The cache is bounded: past
/// `maxStates` states or `maxTableEntries` transitions it is emptied and refilled.
///
/// Not thread-safe: `RegularExpression` serialises access.
final class RegexMatcher {
    private let program: RegexProgram
    private var alphabet: RegexAlphabet

    /// Context bits of a position, as the assertions read them.
    private struct Context: OptionSet {
        let rawValue: Int
        static let atStart = Context(rawValue: 1)
        static let atEnd = Context(rawValue: 2)
        static let beforeFinalTerminator = Context(rawValue: 4)  // `$` holds
        static let wordBoundary = Context(rawValue: 8)
        static let notBeforeLineFeed = Context(rawValue: 16)
    }

    /// The context bits the program's assertions read after the first position (where
    /// `atStart` never holds), shifted down by one: a transition's context index.
    private let contextMask: Int
    private let contextCount: Int
    private let usesEnd: Bool
    private let usesBoundary: Bool
    private let usesLineFeed: Bool

    /// Each state: the `consume` instructions live at a position, sorted.
    private var states: [[Int32]] = []
    private var stateIDs: [[Int32]: Int32] = [:]
    /// `transitions[(state * contextCount + context) * classCapacity + class]`: the next
    /// state, `unknown`, or `matched`.
    private var transitions: [Int32] = []
    private var classCapacity: Int
    private var initialStates: [Int32]

    private static let unknown: Int32 = -1
    private static let matched: Int32 = -2
    static let maxStates = 10_000
    static let maxTableEntries = 1 << 22

    // Scratch space for closures, reused across calls.
    private var marks: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [Int32] = []
    private var found: [Int32] = []

    init(_ program: RegexProgram) {
        self.program = program
        alphabet = RegexAlphabet(sets: program.sets)
        let a = program.assertions
        usesEnd = a.contains(.endOfInput) || a.contains(.endOfInputOrFinalLineTerminator)
        usesBoundary = a.contains(.wordBoundary) || a.contains(.notWordBoundary)
        usesLineFeed = a.contains(.notBeforeLineFeed)
        var mask = 0
        if a.contains(.endOfInput) { mask |= Context.atEnd.rawValue }
        if a.contains(.endOfInputOrFinalLineTerminator) { mask |= Context.beforeFinalTerminator.rawValue }
        if usesBoundary { mask |= Context.wordBoundary.rawValue }
        if usesLineFeed { mask |= Context.notBeforeLineFeed.rawValue }
        contextMask = mask
        contextCount = (mask >> 1) + 1
        classCapacity = max(16, alphabet.count.nextPowerOfTwo)
        initialStates = Array(repeating: Self.unknown, count: 32)
        marks = Array(repeating: 0, count: program.instructions.count)
        startsOnlyAtStart = (0..<16).allSatisfy { context in
            let state = closure(of: [], context: context << 1)
            return state >= 0 && states[Int(state)].isEmpty
        }
    }

    /// Whether a match can only begin at the first position (`^…`, `\A…`): then a state with
    /// no live thread ends the search.
    private var startsOnlyAtStart = false

    /// Whether the UTF-8 text (valid, as a Swift string's is) contains a match.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = text.count
        // Where `$` holds before the end: before a final line terminator (or final \r\n).
        var terminatorStart = -1
        if usesEnd, n > 0 {
            var last = n - 1
            while last > 0, text[last] & 0xC0 == 0x80 { last -= 1 }
            let (value, _) = Self.decode(text, at: last)
            if RegexCharacters.isLineTerminator(value) {
                terminatorStart = value == 0x0A && last > 0 && text[last - 1] == 0x0D ? last - 1 : last
            }
        }
        var previousIsWord = false
        @inline(__always) func context(at position: Int) -> Int {
            var bits = 0
            if usesEnd && position >= n - 3 {
                if position == n { bits |= Context.atEnd.rawValue | Context.beforeFinalTerminator.rawValue }
                else if position == terminatorStart { bits |= Context.beforeFinalTerminator.rawValue }
            }
            if usesBoundary {
                // ICU's rule: no boundary before a combining mark or format character; the
                // character before a position is the last one that is neither.
                if position < n {
                    let (next, _) = Self.decode(text, at: position)
                    if !RegexCharacters.isBoundaryTransparent(next) && RegexCharacters.isWord(next) != previousIsWord {
                        bits |= Context.wordBoundary.rawValue
                    }
                } else if previousIsWord {
                    bits |= Context.wordBoundary.rawValue
                }
            }
            if usesLineFeed && (position == n || text[position] != 0x0A) { bits |= Context.notBeforeLineFeed.rawValue }
            return bits
        }

        var state = initialState(context: context(at: 0) | Context.atStart.rawValue)
        var position = 0
        while state >= 0 {
            if position == n { return false }
            let byte = text[position]
            let symbol: Int32
            var next = position + 1
            if byte < 0x80 {
                symbol = alphabet.asciiClass[Int(byte)]
                if usesBoundary { previousIsWord = RegexCharacters.isWord(UInt32(byte)) }
            } else {
                let (value, length) = Self.decode(text, at: position)
                next = position + length
                symbol = alphabet.classOf(nonASCII: value)
                if usesBoundary && !RegexCharacters.isBoundaryTransparent(value) { previousIsWord = RegexCharacters.isWord(value) }
                if Int(symbol) >= classCapacity { grow() }
            }
            let contextIndex = contextMask == 0 ? 0 : (context(at: next) & contextMask) >> 1
            let slot = (Int(state) * contextCount + contextIndex) * classCapacity + Int(symbol)
            var target = transitions[slot]
            if target == Self.unknown { target = transition(from: &state, symbol: symbol, contextIndex: contextIndex) }
            state = target
            position = next
            if startsOnlyAtStart && state >= 0 && states[Int(state)].isEmpty { return false }
        }
        return true
    }

    /// The state at the first position, whose context includes `atStart`.
    private func initialState(context: Int) -> Int32 {
        if initialStates[context] != Self.unknown { return initialStates[context] }
        let made = closure(of: [], context: context)
        initialStates[context] = made
        return made
    }

    /// Works out (and remembers) the transition from `state` on `symbol`. `state` is updated
    /// when the cache is emptied to make room.
    private func transition(from state: inout Int32, symbol: Int32, contextIndex: Int) -> Int32 {
        if states.count >= Self.maxStates || transitions.count + contextCount * classCapacity > Self.maxTableEntries {
            let current = states[Int(state)]
            reset()
            state = intern(current)
        }
        var targets: [Int32] = []
        for pc in states[Int(state)] {
            guard case let .consume(set, next) = program.instructions[Int(pc)] else { continue }
            if alphabet.contains(class: symbol, set: set) { targets.append(next) }
        }
        let made = closure(of: targets, context: contextIndex << 1)
        transitions[(Int(state) * contextCount + contextIndex) * classCapacity + Int(symbol)] = made
        return made
    }

    /// The state (or `matched`) reached from `threads` plus a new start, following everything
    /// that consumes nothing at a position with `context`.
    private func closure(of threads: [Int32], context: Int) -> Int32 {
        generation &+= 1
        if generation == 0 {
            for i in marks.indices { marks[i] = 0 }
            generation = 1
        }
        found.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        stack.append(program.start)
        stack.append(contentsOf: threads.reversed())
        let bits = Context(rawValue: context)
        while let pc = stack.popLast() {
            if marks[Int(pc)] == generation { continue }
            marks[Int(pc)] = generation
            switch program.instructions[Int(pc)] {
            case .consume: found.append(pc)
            case let .split(first, second):
                stack.append(second)
                stack.append(first)
            case let .jump(target): stack.append(target)
            case let .assert(assertion, next):
                if Self.holds(assertion, bits) { stack.append(next) }
            case .match: return Self.matched
            }
        }
        found.sort()
        return intern(found)
    }

    private static func holds(_ assertion: RegexAssertion, _ context: Context) -> Bool {
        switch assertion {
        case .startOfInput: return context.contains(.atStart)
        case .endOfInput: return context.contains(.atEnd)
        case .endOfInputOrFinalLineTerminator: return context.contains(.beforeFinalTerminator)
        case .wordBoundary: return context.contains(.wordBoundary)
        case .notWordBoundary: return !context.contains(.wordBoundary)
        case .notBeforeLineFeed: return context.contains(.notBeforeLineFeed)
        }
    }

    private func intern(_ threads: [Int32]) -> Int32 {
        if let known = stateIDs[threads] { return known }
        let made = Int32(states.count)
        states.append(threads)
        stateIDs[threads] = made
        transitions.append(contentsOf: repeatElement(Self.unknown, count: contextCount * classCapacity))
        return made
    }

    private func reset() {
        states.removeAll(keepingCapacity: true)
        stateIDs.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
        for i in initialStates.indices { initialStates[i] = Self.unknown }
    }

    /// A new class of scalars appeared beyond the table's width: widen it and start afresh.
    private func grow() {
        let live = states
        classCapacity = max(classCapacity * 2, alphabet.count.nextPowerOfTwo)
        reset()
        for threads in live { _ = intern(threads) }
    }

    /// The scalar at `index` of valid UTF-8, and its length in bytes.
    @inline(__always) static func decode(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let b0 = UInt32(text[index])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F), 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F), 3)
        }
        return ((b0 & 0x07) << 18 | UInt32(text[index + 1] & 0x3F) << 12 | UInt32(text[index + 2] & 0x3F) << 6 | UInt32(text[index + 3] & 0x3F), 4)
    }
}

private extension Int {
    var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}
