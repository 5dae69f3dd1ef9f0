import AtelierRecords

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
        var hashed: [JSONObject] = []
        var hashes: [UInt64] = []
        var windows: [[UInt64]] = []
        for image in images {
            guard let hex = image["phash"]?.string, let hash = PerceptualHash.parse(hex) else {
                unhashed += 1
                continue
            }
            hashed.append(image)
            hashes.append(hash)
            windows.append(image["phashWindows"]?.string.flatMap(PerceptualHash.parseList) ?? [])
        }
        let groups: [DuplicateGroups.Group], others: [Int]
        if let judge, let wide = confirmWithin {
            var pairs: [(a: Int32, b: Int32, distance: UInt8)] = []
            let reach = max(wide, threshold)
            DuplicateGroups.forEachPair(hashes, threshold: reach) { a, b in
                pairs.append((Int32(a), Int32(b), UInt8((hashes[a] ^ hashes[b]).nonzeroBitCount)))
            }
            if let windowWithin {
                DuplicateGroups.forEachWindowPair(hashes, windows: windows, threshold: windowWithin) { a, b in
                    let distance = (hashes[a] ^ hashes[b]).nonzeroBitCount
                    if distance > reach { pairs.append((Int32(a), Int32(b), UInt8(distance))) }
                }
            }
            /// What the hashes say of a pair the features cannot judge: a window's closeness is
            /// not enough on its own (plain look-alike photos share windows).
            func hashesSay(_ x: Int, _ y: Int) -> Bool { (hashes[x] ^ hashes[y]).nonzeroBitCount <= threshold }
            let verdicts = judge.judge(hashed, pairs.map { Candidate(first: Int($0.a), second: Int($0.b), distance: Int($0.distance)) })
            func key(_ x: Int, _ y: Int) -> Int64 { Int64(min(x, y)) << 32 | Int64(max(x, y)) }
            var same: [Int64: Bool] = [:]
            var kept: [(a: Int32, b: Int32, distance: UInt8)] = []
            for (pair, verdict) in zip(pairs, verdicts) {
                let isSame = verdict ?? hashesSay(Int(pair.a), Int(pair.b))
                same[key(Int(pair.a), Int(pair.b))] = isSame
                if isSame { kept.append(pair) }
            }
            let clusters = DuplicateGroups.completeLinkage(count: hashes.count, pairs: kept) { x, y in
                if let known = same[key(x, y)] { return known }
                let isSame = judge.judge(x, y) ?? hashesSay(x, y)
                same[key(x, y)] = isSame
                return isSame
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
}
