/// Groups near-duplicate photos by the Hamming distance of their 64-bit perceptual hashes.
///
/// Two photos are linked when their hashes differ in at most `threshold` bits, and a group is
/// a connected set of links (so a chain of small edits stays together, as photo organisers
/// show it). Pairs are found by multi-index hashing (Norouzi, Punjani and Fleet, "Fast Search
/// in Hamming Space with Multi-Index Hashing", CVPR 2012): the hash is cut into four 16-bit
/// chunks; two hashes within `threshold` bits agree within ⌊threshold/4⌋ bits on at least one
/// chunk, so each photo probes only the chunk values that close to its own. On 100,000 hashes
/// that is a few hundred candidates per photo instead of 100,000.
public enum DuplicateGroups {
    /// One group: indices into the input, the first being the one the others are measured from.
    public struct Group: Sendable, Equatable {
        public var members: [Int]
        /// Bits from the first member's hash, per member.
        public var distances: [Int]
    }

    /// Groups of two or more, largest first (ties in input order), and the indices in none.
    public static func find(_ hashes: [UInt64], threshold: Int) -> (groups: [Group], others: [Int]) {
        precondition((0 ... 64).contains(threshold))
        var parent = Array(0 ..< hashes.count)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        forEachPair(hashes, threshold: threshold) { a, b in
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }  // the earliest photo leads
        }
        var members: [Int: [Int]] = [:]
        for i in hashes.indices { members[root(i), default: []].append(i) }
        var groups: [Group] = []
        var others: [Int] = []
        for (_, list) in members {
            if list.count == 1 {
                others.append(list[0])
            } else {
                let first = hashes[list[0]]
                groups.append(Group(members: list, distances: list.map { (hashes[$0] ^ first).nonzeroBitCount }))
            }
        }
        groups.sort { $0.members.count != $1.members.count ? $0.members.count > $1.members.count : $0.members[0] < $1.members[0] }
        return (groups, others.sorted())
    }

    /// Calls `link(a, b)` (a < b) once for every pair within `threshold` bits.
    public static func forEachPair(_ hashes: [UInt64], threshold: Int, _ link: (Int, Int) -> Void) {
        guard hashes.count > 1 else { return }
        if threshold >= 16 || hashes.count < 64 {
            // Wide thresholds defeat the index (every chunk matches); small inputs do not need it.
            for a in 0 ..< hashes.count {
                for b in a + 1 ..< hashes.count where (hashes[a] ^ hashes[b]).nonzeroBitCount <= threshold { link(a, b) }
            }
            return
        }
        let radius = threshold / 4
        // tables[c][value]: the photos whose chunk c equals value, as a CSR-style index.
        var starts = [[Int32]](repeating: [], count: 4)
        var entries = [[Int32]](repeating: [], count: 4)
        for c in 0 ..< 4 {
            var counts = [Int32](repeating: 0, count: 65537)
            for h in hashes { counts[Int(chunk(h, c)) + 1] += 1 }
            for v in 0 ..< 65536 { counts[v + 1] += counts[v] }
            var fill = counts
            var list = [Int32](repeating: 0, count: hashes.count)
            for (i, h) in hashes.enumerated() {
                let v = Int(chunk(h, c))
                list[Int(fill[v])] = Int32(i)
                fill[v] += 1
            }
            starts[c] = counts
            entries[c] = list
        }
        let probes = masks(bits: 16, upTo: radius)
        var seen = [Int32](repeating: -1, count: hashes.count)  // last photo `a` that checked b
        for a in 0 ..< hashes.count {
            let h = hashes[a]
            for c in 0 ..< 4 {
                let value = chunk(h, c)
                for mask in probes {
                    let v = Int(value ^ mask)
                    for k in Int(starts[c][v]) ..< Int(starts[c][v + 1]) {
                        let b = Int(entries[c][k])
                        guard b > a, seen[b] != Int32(a) else { continue }
                        seen[b] = Int32(a)
                        if (h ^ hashes[b]).nonzeroBitCount <= threshold { link(a, b) }
                    }
                }
            }
        }
    }

    @inline(__always)
    static func chunk(_ hash: UInt64, _ index: Int) -> UInt16 { UInt16(truncatingIfNeeded: hash >> (16 * index)) }

    /// Every `bits`-bit value with at most `radius` bits set.
    static func masks(bits: Int, upTo radius: Int) -> [UInt16] {
        (0 ..< (1 << bits)).filter { $0.nonzeroBitCount <= radius }.map { UInt16($0) }
    }
}
