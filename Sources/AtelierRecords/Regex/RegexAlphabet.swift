/// Groups Unicode scalars into classes that no set of a program tells apart, so the lazy DFA
/// keeps one transition per class instead of one per scalar (RE2's byte classes, on scalars).
///
/// ASCII is classified up front; any other scalar the first time it is met, then remembered.
struct RegexAlphabet {
    let sets: [RegexCharSet]
    /// For each class, which sets contain its scalars (a bit per set).
    private(set) var signatures: [[UInt64]] = []
    private var classBySignature: [[UInt64]: Int32] = [:]
    private(set) var asciiClass: [Int32] = []
    private var classByScalar: [UInt32: Int32] = [:]

    /// How many scalars outside ASCII are remembered before the memory is cleared, so that a
    /// subject in many scripts cannot grow it without bound.
    private static let maxRemembered = 1 << 16

    init(sets: [RegexCharSet]) {
        self.sets = sets
        asciiClass = (0..<128).map { _ in 0 }
        for value in 0..<128 { asciiClass[value] = classify(UInt32(value)) }
    }

    var count: Int { signatures.count }

    /// The class of a scalar outside ASCII.
    @inline(__always) mutating func classOf(nonASCII value: UInt32) -> Int32 {
        if let known = classByScalar[value] { return known }
        if classByScalar.count >= Self.maxRemembered { classByScalar.removeAll(keepingCapacity: true) }
        let made = classify(value)
        classByScalar[value] = made
        return made
    }

    /// Whether the scalars of class `index` belong to set `set`.
    @inline(__always) func contains(class index: Int32, set: Int32) -> Bool {
        signatures[Int(index)][Int(set) >> 6] & (1 << UInt64(set & 63)) != 0
    }

    private mutating func classify(_ value: UInt32) -> Int32 {
        var signature = [UInt64](repeating: 0, count: (sets.count + 63) / 64)
        for (index, set) in sets.enumerated() where set.contains(value) {
            signature[index >> 6] |= 1 << UInt64(index & 63)
        }
        if let known = classBySignature[signature] { return known }
        let made = Int32(signatures.count)
        signatures.append(signature)
        classBySignature[signature] = made
        return made
    }
}
