import AtelierRecords
import CHamming
import Dispatch

/// Groups near-duplicate photos by the Hamming distance of their 64-bit perceptual hashes.
///
/// A group is a complete-linkage cluster: every two photos in it differ in at most `threshold`
/// bits. Closest pairs merge first (agglomerative clustering, cut at the threshold), and two
/// groups merge only if all their cross pairs are within it. Single linkage (connected
/// components of the pairs) chains look-alike but distinct photos — a wardrobe shot on one
/// backdrop — into groups of dozens; complete linkage keeps a group a set of true look-alikes.
///
/// Pairs are found by multi-index hashing (Norouzi, Punjani and Fleet, "Fast Search in Hamming
/// Space with Multi-Index Hashing", CVPR 2012): the hash is cut into four 16-bit chunks, and two
/// hashes within `threshold` bits agree closely on at least one of them (`probeMasks`), so each
/// photo probes only the chunk values that close to its own. On 100,000 hashes that is a few
/// hundred candidates per photo instead of 100,000. Equal hashes are clustered once, so a
/// thousand copies of one photo cost one photo.
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
        // Distinct hashes, in order of first appearance, and the inputs carrying each.
        var distinctIndex: [UInt64: Int] = [:]
        var distinct: [UInt64] = []
        var carriers: [[Int]] = []
        for (i, h) in hashes.enumerated() {
            if let k = distinctIndex[h] {
                carriers[k].append(i)
            } else {
                distinctIndex[h] = distinct.count
                distinct.append(h)
                carriers.append([i])
            }
        }
        var pairs: [(a: Int32, b: Int32, distance: UInt8)] = []
        forEachPair(distinct, threshold: threshold) { a, b in
            pairs.append((Int32(a), Int32(b), UInt8((distinct[a] ^ distinct[b]).nonzeroBitCount)))
        }
        let clusters = completeLinkage(count: distinct.count, pairs: pairs) { x, y in
            (distinct[x] ^ distinct[y]).nonzeroBitCount <= threshold
        }
        return assemble(clusters.map { list in list.flatMap { carriers[$0] } }, hashes: hashes)
    }

    /// Groups of photos that every pair within is `linked`: complete-linkage clusters over the
    /// candidate `pairs` (indices below `count`), closest first. The pairs given are the only
    /// ones that may merge two clusters; `linked` is then asked of every cross pair.
    public static func completeLinkage(count: Int, pairs: [(a: Int32, b: Int32, distance: UInt8)],
                                       linked: (Int, Int) -> Bool) -> [[Int]] {
        let ordered = pairs.sorted { ($0.distance, $0.a, $0.b) < ($1.distance, $1.a, $1.b) }
        // cluster[k]: the cluster holding item k, named by its earliest member.
        var cluster = Array(0 ..< count)
        var clusterMembers = (0 ..< count).map { [$0] }
        for pair in ordered {
            let (ca, cb) = (cluster[Int(pair.a)], cluster[Int(pair.b)])
            guard ca != cb else { continue }
            let withinThreshold = clusterMembers[ca].allSatisfy { x in clusterMembers[cb].allSatisfy { y in linked(x, y) } }
            guard withinThreshold else { continue }
            let (keep, absorb) = (min(ca, cb), max(ca, cb))  // the earliest photo leads
            for k in clusterMembers[absorb] { cluster[k] = keep }
            clusterMembers[keep] += clusterMembers[absorb]
            clusterMembers[absorb] = []
        }
        return clusterMembers.filter { !$0.isEmpty }
    }

    /// Clusters (lists of input indices) as groups of two or more, largest first (ties in input
    /// order), each measured from its earliest photo, and the indices left alone.
    public static func assemble(_ clusters: [[Int]], hashes: [UInt64]) -> (groups: [Group], others: [Int]) {
        var groups: [Group] = []
        var others: [Int] = []
        for list in clusters {
            let members = list.sorted()
            if members.count == 1 {
                others.append(members[0])
            } else if let leader = members.first {
                let first = hashes[leader]
                groups.append(Group(members: members, distances: members.map { (hashes[$0] ^ first).nonzeroBitCount }))
            }
        }
        groups.sort { $0.members.count != $1.members.count ? $0.members.count > $1.members.count : $0.members[0] < $1.members[0] }
        return (groups, others.sorted())
    }

    /// Calls `link(a, b)` (a < b) once for every pair within `threshold` bits, in order of `a`
    /// and then `b`. The search runs on every core; `link` is called on the caller's thread.
    public static func forEachPair(_ hashes: [UInt64], threshold: Int, _ link: (Int, Int) -> Void) {
        guard hashes.count > 1 else { return }
        let found: [[Int64]]
        if threshold >= 16 || hashes.count < 64 {
            // Wide thresholds defeat the index (every chunk matches); small inputs do not need
            // it. Each row is scanned against the rows after it, 256 at a time (ScanTable).
            // Rows go in runs of up to 8 in a row, which the table scans in one pass.
            let table = ScanTable(hashes)
            found = inStripes(hashes.count) { rows, pairs in
                let hits = (0 ..< ScanTable.batch).map { _ in UnsafeMutablePointer<UInt32>.allocate(capacity: hashes.count) }
                defer { hits.forEach { $0.deallocate() } }
                var batch: [Int] = []
                func scanBatch() {
                    let counts = table.scan(batch.map { hashes[$0] }, from: batch.map { $0 + 1 }, threshold, hits)
                    for (q, a) in batch.enumerated() {
                        for k in 0 ..< counts[q] { pairs.append(pair(a, a + 1 + Int(hits[q][k]))) }
                    }
                    batch.removeAll(keepingCapacity: true)
                }
                for a in rows {
                    if let last = batch.last, last + 1 != a || batch.count == ScanTable.batch { scanBatch() }
                    batch.append(a)
                }
                if !batch.isEmpty { scanBatch() }
            }
        } else {
            let index = ChunkIndex(hashes)
            let probes = probeMasks(threshold: threshold)
            found = inStripes(hashes.count) { rows, pairs in
                var seen = [Int32](repeating: -1, count: hashes.count)  // the last photo `a` that found b
                for a in rows {
                    index.forEachWithin(threshold, of: hashes[a], probes: probes) { b in
                        guard b > a, seen[b] != Int32(a) else { return }
                        seen[b] = Int32(a)
                        pairs.append(pair(a, b))
                    }
                }
            }
        }
        linkInOrder(found, link)
    }

    /// Calls `link(a, b)` for each pair the stripes found, once, in order of `a` and then `b`.
    static func linkInOrder(_ found: [[Int64]], _ link: (Int, Int) -> Void) {
        var keys = found.flatMap { $0 }
        keys.sort()
        var last: Int64 = -1
        for key in keys where key != last {
            last = key
            link(Int(key >> 32), Int(key & 0xFFFF_FFFF))
        }
    }

    /// A pair (a < b) as one sortable number.
    @inline(__always)
    static func pair(_ a: Int, _ b: Int) -> Int64 { Int64(min(a, b)) << 32 | Int64(max(a, b)) }

    /// `search(rows, &pairs)` over `0 ..< count` cut into interleaved stripes worked on every
    /// core; the pairs each stripe found, stripes in order. Rows go round-robin in small runs,
    /// so a triangular search (row a looks at rows after it) is shared evenly.
    static func inStripes(_ count: Int, _ search: @Sendable (StrideRows, inout [Int64]) -> Void) -> [[Int64]] {
        let stripes = min(count, 64), run = 16
        return ParallelArray.map(stripes, parts: stripes) { stripe in
            var pairs: [Int64] = []
            search(StrideRows(first: stripe * run, count: count, step: stripes * run, run: run), &pairs)
            return pairs
        }
    }

    /// The rows of one stripe: runs of `run` rows every `step` rows from `first`, below `count`.
    struct StrideRows: Sequence, Sendable {
        let first: Int, count: Int, step: Int, run: Int

        func makeIterator() -> AnyIterator<Int> {
            var start = first, k = 0
            return AnyIterator {
                if k == run { start += step; k = 0 }
                let row = start + k
                guard row < count else { return nil }
                k += 1
                return row
            }
        }
    }

    /// The multi-index hashing table: for each of the four 16-bit chunks, the hashes bucketed
    /// by that chunk's value (`ChunkBuckets`).
    struct ChunkIndex: Sendable {
        private let chunks: [ChunkBuckets]

        init(_ hashes: [UInt64]) {
            chunks = (0 ..< 4).map { ChunkBuckets(hashes, chunk: $0) }
        }

        /// Calls `body` with the position of every hash within `threshold` bits of `hash`,
        /// given `probes = probeMasks(threshold: threshold)`. A hash may come once per chunk it
        /// agrees on.
        func forEachWithin(_ threshold: Int, of hash: UInt64, probes: [[UInt16]], _ body: (Int) -> Void) {
            for (c, buckets) in chunks.enumerated() {
                let value = chunk(hash, c)
                for mask in probes[c] {
                    for k in buckets.range(of: value ^ mask) where (hash ^ buckets.keys[k]).nonzeroBitCount <= threshold {
                        body(Int(buckets.ids[k]))
                    }
                }
            }
        }
    }

    /// Hashes bucketed by the value of one 16-bit chunk (CSR-style: where each value's run
    /// starts, then the hashes and their ids in value order), so the hashes a probe must check
    /// are read in a row. Held in memory of its own, freed with it: the window join builds one
    /// of four and a half million windows per chunk, and copying that into arrays cost as much
    /// as the sort.
    final class ChunkBuckets: @unchecked Sendable {
        let starts: UnsafeMutablePointer<Int32>
        let keys: UnsafeMutablePointer<UInt64>
        let ids: UnsafeMutablePointer<Int32>
        /// The hashes it has room for.
        let capacity: Int
        /// The most hashes of any one value.
        private(set) var largest = 0

        /// `hashes` by their chunk `c`, each with its position as id (or `ids[position]`).
        convenience init(_ hashes: [UInt64], ids given: [Int32]? = nil, chunk c: Int) {
            self.init(capacity: hashes.count)
            fill(hashes, ids: given, chunk: c)
        }

        /// Room for `capacity` hashes, to `fill` (again and again: the window join sorts its
        /// windows once per chunk into the same memory, which the system need not hand out
        /// and clear four times).
        init(capacity: Int) {
            self.capacity = capacity
            starts = .allocate(capacity: 65537)
            starts.initialize(repeating: 0, count: 65537)
            keys = .allocate(capacity: max(1, capacity))
            ids = .allocate(capacity: max(1, capacity))
        }

        /// Buckets `hashes` (at most `capacity`) by their chunk `c`, each with its position as
        /// id (or `ids[position]`), in input order within a value. A counting sort (CHamming),
        /// in parts on every core: each part counts its values, then writes its hashes after
        /// the earlier parts' of the same value.
        func fill(_ hashes: [UInt64], ids given: [Int32]? = nil, chunk c: Int) {
            precondition(hashes.count <= capacity && (given == nil || given!.count == hashes.count))
            let count = hashes.count, parts = count >= 1 << 16 ? 4 : 1, partSize = (count + parts - 1) / parts, chunk = UInt32(c)
            @Sendable func part(_ p: Int) -> (Int, Int) { (min(p * partSize, count), min((p + 1) * partSize, count)) }
            // counts[p * 65536 + v]: hashes of value v in part p, then where part p writes them.
            let counts = UnsafeMutablePointer<Int32>.allocate(capacity: parts * 65536)
            counts.initialize(repeating: 0, count: parts * 65536)
            defer { counts.deallocate() }
            let shared = SharedPointer(base: counts)
            hashes.withUnsafeBufferPointer { all in
                let source = SharedBuffer(buffer: all)
                DispatchQueue.concurrentPerform(iterations: parts) { p in
                    let (begin, end) = part(p)
                    atl_chunk_count(source.buffer.baseAddress, begin, end, chunk, shared.base + p * 65536)
                }
            }
            var next: Int32 = 0, most: Int32 = 0
            for v in 0 ..< 65536 {
                starts[v] = next
                var ofValue: Int32 = 0
                for p in 0 ..< parts {
                    let n = counts[p * 65536 + v]
                    counts[p * 65536 + v] = next + ofValue
                    ofValue += n
                }
                next += ofValue
                most = max(most, ofValue)
            }
            starts[65536] = next
            largest = Int(most)
            let (sharedKeys, sharedIDs) = (SharedPointer(base: keys), SharedPointer(base: ids))
            hashes.withUnsafeBufferPointer { all in
                func scatter(_ owners: SharedBuffer<Int32>?) {
                    let source = SharedBuffer(buffer: all)
                    DispatchQueue.concurrentPerform(iterations: parts) { p in
                        let (begin, end) = part(p)
                        atl_chunk_scatter(source.buffer.baseAddress, owners?.buffer.baseAddress, begin, end, chunk,
                                          shared.base + p * 65536, sharedKeys.base, sharedIDs.base)
                    }
                }
                if let given { given.withUnsafeBufferPointer { scatter(SharedBuffer(buffer: $0)) } } else { scatter(nil) }
            }
        }

        deinit {
            starts.deallocate()
            keys.deallocate()
            ids.deallocate()
        }

        @inline(__always)
        func range(of value: UInt16) -> Range<Int> { Int(starts[Int(value)]) ..< Int(starts[Int(value) + 1]) }

        /// The buckets as CHamming reads them (valid while `self` lives).
        var cBuckets: atl_buckets { atl_buckets(starts: starts, keys: keys, ids: ids) }
    }

    @inline(__always)
    static func chunk(_ hash: UInt64, _ index: Int) -> UInt16 { UInt16(truncatingIfNeeded: hash >> (16 * index)) }

    /// For each of the four chunks, the masks to probe it with so that every pair within
    /// `threshold` bits is found: every 16-bit value of at most r_c bits, where the radii r_c
    /// add up to `threshold - 3`. If two hashes differed in more than r_c bits on every chunk
    /// c, they would differ in at least Σ(r_c + 1) = `threshold + 1`; so some chunk is within
    /// its radius (the generalised pigeonhole principle: Qin et al., "GPH: Similarity Search in
    /// Hamming Space", ICDE 2018). Where ⌊threshold/4⌋ on every chunk probes 548 values at 8
    /// bits, radii (2, 1, 1, 1) probe 188. A chunk of radius -1 is not probed at all.
    static func probeMasks(threshold: Int) -> [[UInt16]] {
        let total = threshold - 3
        let base = total >= 0 ? total / 4 : -((-total + 3) / 4)  // ⌊total/4⌋
        let extra = total - 4 * base  // chunks that take one bit more
        return (0 ..< 4).map { c in
            let radius = base + (c < extra ? 1 : 0)
            return (0 ..< (1 << 16)).filter { $0.nonzeroBitCount <= radius }.map { UInt16($0) }
        }
    }

    /// Hashes laid out for scanning every row against the rows after it (CHamming's bit-sliced
    /// table: 256 distances counted at once); freed with the last copy.
    final class ScanTable: @unchecked Sendable {
        private let table: OpaquePointer

        init(_ hashes: [UInt64]) {
            guard let made = hashes.withUnsafeBufferPointer({ atl_hamming_table_make($0.baseAddress, $0.count) }) else {
                fatalError("out of memory for a table of \(hashes.count) hashes")
            }
            table = made
        }

        deinit { atl_hamming_table_free(table) }

        /// Writes to `hits` (room for the hashes from `from` on) the positions, counted from
        /// `from`, of those within `threshold` bits of `hash`; how many.
        func scan(_ hash: UInt64, from: Int, _ threshold: Int, _ hits: UnsafeMutablePointer<UInt32>) -> Int {
            atl_hamming_table_within(table, hash, from, UInt32(threshold), hits)
        }

        /// The queries one scan does at once best (CHamming reads the table once for them).
        static let batch = 8

        /// `scan` for several queries in one pass: query q from `from[q]` into `hits[q]`; how
        /// many each found.
        func scan(_ queries: [UInt64], from: [Int], _ threshold: Int, _ hits: [UnsafeMutablePointer<UInt32>]) -> [Int] {
            precondition(queries.count == from.count && queries.count <= hits.count)
            var found = [Int](repeating: 0, count: queries.count)
            let starts = from.map { max(0, $0) }
            hits.map { Optional($0) }.withUnsafeBufferPointer { outs in
                found.withUnsafeMutableBufferPointer { counts in
                    atl_hamming_table_within_many(table, queries, starts, queries.count, UInt32(threshold), outs.baseAddress, counts.baseAddress)
                }
            }
            return found
        }
    }

    /// Writes to `hits` (room for `count`) the positions of the `count` hashes at `keys` within
    /// `threshold` bits of `hash`, in order; how many (CHamming: four at once where it can).
    @inline(__always)
    static func scan(_ hash: UInt64, _ keys: UnsafePointer<UInt64>, _ count: Int, _ threshold: Int,
                     _ hits: UnsafeMutablePointer<UInt32>) -> Int {
        atl_hamming_within(hash, keys, count, UInt32(threshold), hits)
    }
}
