import AtelierRecords
import Dispatch

/// `atl-query duplicates`: image records in, `group` records out.
///
/// Each group of near-duplicates becomes `{"type":"group","id":"dup-…","size":n,"images":[{id,
/// path, distance}]}`, the distance counted in pHash bits from the group's first photo; photos
/// that match nothing come last in the group `other`, as photo organisers show them.
public struct DuplicateGrouping {
    /// pHash bits: re-encoded, resized and brightened copies differ by a few, distinct photos
    /// by about 32 (see benchmarks/RESULTS.md for how it was chosen).
    public static let defaultThreshold = 8

    public private(set) var records: [JSONObject] = []
    /// Images without a usable `phash`, left out.
    public private(set) var unhashed = 0

    /// A pair of photos for the `Judge` to look at: indices into the photos it is given, and their
    /// pHash distance.
    public struct Candidate: Sendable, Equatable {
        public var first: Int, second: Int, distance: Int
    }

    /// A second opinion on pairs of photos: the same picture or not, or nil when it cannot tell
    /// (then the hash decides, as without one).
    public protocol Judge: AnyObject {
        /// Verdicts on the candidates, in order (all at once, so they can be worked in parallel).
        func judge(_ photos: [JSONObject], _ candidates: [Candidate]) -> [Bool?]
        /// A verdict on one more pair of the same photos (indices into them), asked when two
        /// groups might merge and a cross pair was not a candidate.
        func judge(_ first: Int, _ second: Int) -> Bool?
    }

    /// Groups by pHash alone: two photos are the same when within `threshold` bits.
    public init(images: [JSONObject], threshold: Int) {
        self.init(images: images, threshold: threshold, confirmWithin: nil, judge: nil)
    }

    /// Groups with a second opinion: every pair within `confirmWithin` bits (wider than
    /// `threshold`, to reach crops and turns the hash moves far), and every pair where one
    /// photo's pHash is within `windowWithin` bits of a window of the other's (`phashWindows`,
    /// so it may be a crop of it), is a candidate, and `judge` decides which are the same
    /// picture. Where it cannot tell, pairs within `threshold` count. Groups are still
    /// complete-linkage clusters, each cross pair judged the same way.
    public init(images: [JSONObject], threshold: Int, confirmWithin: Int?, windowWithin: Int? = nil, judge: Judge?) {
        let read = Self.hashes(of: images, windows: confirmWithin != nil && windowWithin != nil)
        var hashed: [JSONObject] = []
        var hashes: [UInt64] = []
        var windows: [[UInt64]] = []
        for (image, found) in zip(images, read) {
            guard let found else {
                unhashed += 1
                continue
            }
            hashed.append(image)
            hashes.append(found.hash)
            windows.append(found.windows)
        }
        let groups: [DuplicateGroups.Group], others: [Int]
        if let judge, let wide = confirmWithin {
            var pairs: [(a: Int32, b: Int32, distance: UInt8)] = []
            let reach = max(wide, threshold)
            DuplicateGroups.forEachPair(hashes, threshold: reach) { a, b in
                pairs.append((Int32(a), Int32(b), UInt8((hashes[a] ^ hashes[b]).nonzeroBitCount)))
            }
            if let windowWithin {
                // A window within `reach - windowWithin` bits of its own photo's pHash finds
                // only pairs the pHashes found already (the triangle inequality): leave it out.
                let redundant = reach - windowWithin
                for i in windows.indices where !windows[i].isEmpty {
                    windows[i].removeAll { ($0 ^ hashes[i]).nonzeroBitCount <= redundant }
                }
                DuplicateGroups.forEachWindowPair(hashes, windows: windows, threshold: windowWithin) { a, b in
                    let distance = (hashes[a] ^ hashes[b]).nonzeroBitCount
                    if distance > reach { pairs.append((Int32(a), Int32(b), UInt8(distance))) }
                }
            }
            /// What the hashes say of a pair the features cannot judge: a window's closeness is
            /// not enough on its own (plain look-alike photos share windows).
            func hashesSay(_ x: Int, _ y: Int) -> Bool { (hashes[x] ^ hashes[y]).nonzeroBitCount <= threshold }
            let verdicts = judge.judge(hashed, pairs.map { Candidate(first: Int($0.a), second: Int($0.b), distance: Int($0.distance)) })
            var isSame = [Bool](repeating: false, count: pairs.count)
            var kept: [(a: Int32, b: Int32, distance: UInt8)] = []
            for (k, (pair, verdict)) in zip(pairs, verdicts).enumerated() {
                isSame[k] = verdict ?? hashesSay(Int(pair.a), Int(pair.b))
                if isSame[k] { kept.append(pair) }
            }
            let candidates = PairVerdicts(pairs, isSame)
            var asked: [Int64: Bool] = [:]  // cross pairs that were not candidates
            let clusters = DuplicateGroups.completeLinkage(count: hashes.count, pairs: kept) { x, y in
                if let known = candidates[x, y] { return known }
                let key = DuplicateGroups.pair(x, y)
                if let known = asked[key] { return known }
                let verdict = judge.judge(x, y) ?? hashesSay(x, y)
                asked[key] = verdict
                return verdict
            }
            (groups, others) = DuplicateGroups.assemble(clusters, hashes: hashes)
        } else {
            (groups, others) = DuplicateGroups.find(hashes, threshold: threshold)
        }
        func member(_ index: Int, distance: Int?) -> JSONValue {
            var entry = JSONObject()
            entry["id"] = hashed[index]["id"] ?? .null
            if let path = hashed[index]["path"] { entry["path"] = path }
            if let distance { entry["distance"] = .int(Int64(distance)) }
            return .object(entry)
        }
        for group in groups {
            let leader = hashed[group.members[0]]["id"]?.string ?? "\(group.members[0])"
            let tag = leader.hasPrefix("sha256:") ? String(leader.dropFirst(7).prefix(12)) : leader
            records.append(["type": "group", "id": .string("dup-" + tag), "size": .int(Int64(group.members.count)),
                            "images": .array(zip(group.members, group.distances).map { member($0, distance: $1) })])
        }
        if !others.isEmpty {
            records.append(["type": "group", "id": "other", "size": .int(Int64(others.count)),
                            "images": .array(others.map { member($0, distance: nil) })])
        }
    }

    /// Each image's pHash and, if asked, window pHashes (`[]` where it has none); nil where it
    /// has no usable pHash. Read on every core: a hundred thousand records of 48 windows each
    /// take half a second on one.
    static func hashes(of images: [JSONObject], windows: Bool) -> [(hash: UInt64, windows: [UInt64])?] {
        ParallelArray.map(images.count, parts: images.count >= 4096 ? 16 : 1) { i in
            let image = images[i]
            guard let hex = image["phash"]?.string, let hash = PerceptualHash.parse(hex) else { return nil }
            return (hash, windows ? image["phashWindows"]?.string.flatMap(PerceptualHash.parseList) ?? [] : [])
        }
    }
}

/// Verdicts on candidate pairs, found by binary search in two arrays sorted by pair: a
/// dictionary of the million and a half candidates of 100,000 photos took a third of a second
/// to fill, for the few cross pairs complete linkage asks.
struct PairVerdicts {
    private var keys: [Int64] = []
    private var verdicts: [Bool] = []

    init(_ pairs: [(a: Int32, b: Int32, distance: UInt8)], _ isSame: [Bool]) {
        keys = pairs.map { DuplicateGroups.pair(Int($0.a), Int($0.b)) }
        verdicts = isSame
        if !zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) {
            // The pHash pairs come in order, then the window pairs in order: two runs.
            let order = keys.indices.sorted { keys[$0] < keys[$1] }
            keys = order.map { keys[$0] }
            verdicts = order.map { isSame[$0] }
        }
    }

    /// The verdict on photos `x` and `y` if they were a candidate pair.
    subscript(x: Int, y: Int) -> Bool? {
        let key = DuplicateGroups.pair(x, y)
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? verdicts[low] : nil
    }
}
