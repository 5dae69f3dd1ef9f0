/// One keypoint of one image: an element of a track.
public struct TrackElement: Sendable, Equatable, Hashable {
    public var image: Int32
    public var keypoint: Int32

    public init(image: Int, keypoint: Int) {
        self.image = Int32(image)
        self.keypoint = Int32(keypoint)
    }
}

/// Keypoints linked by verified matches across all image pairs: each track is one surface point
/// seen in several images.
///
/// Built once, before mapping, by union–find over the verified matches (as OpenMVG and Theia
/// do), pairs with the most inliers first. A match that would put two keypoints of one image
/// into one track is refused: it links features that cannot be one point (usually one wrong
/// match among a weak pair's), and accepting it would spoil both tracks it joins. Tracks are
/// stored flat: the elements of track `t` are `elements[starts[t] ..< starts[t + 1]]`, in
/// image order.
public struct Tracks: Sendable {
    public private(set) var elements: [TrackElement] = []
    public private(set) var starts: [Int] = [0]
    /// For each image, for each of its keypoints, its track or −1.
    public private(set) var trackOfKeypoint: [[Int32]]
    /// Matches refused because they would have put two keypoints of one image in one track.
    public private(set) var conflictingMatches = 0

    public var count: Int { starts.count - 1 }

    public func elements(of track: Int) -> ArraySlice<TrackElement> { elements[starts[track] ..< starts[track + 1]] }

    /// The tracks of `keypointCounts[i]` keypoints in image `i`, linked by `pairs`.
    public init(keypointCounts: [Int], pairs: [VerifiedPair]) {
        var offsets = [0]
        for count in keypointCounts { offsets.append(offsets.last! + count) }
        var sets = DisjointSets(count: offsets.last!)
        // The images in each set, kept at its root (sorted; tracks are short).
        var imagesOfRoot: [Int: [Int32]] = [:]
        func images(_ root: Int, node: Int) -> [Int32] { imagesOfRoot[root] ?? [Int32(Self.image(of: node, offsets: offsets))] }
        let ordered = pairs.indices.sorted { pairs[$0].matches.count != pairs[$1].matches.count ? pairs[$0].matches.count > pairs[$1].matches.count : $0 < $1 }
        for index in ordered {
            let pair = pairs[index]
            let base1 = offsets[pair.image1], base2 = offsets[pair.image2]
            for match in pair.matches {
                let a = base1 + Int(match.index1), b = base2 + Int(match.index2)
                let ra = sets.find(a), rb = sets.find(b)
                guard ra != rb else { continue }
                let ia = images(ra, node: a), ib = images(rb, node: b)
                if ia.contains(where: { ib.contains($0) }) {
                    conflictingMatches += 1
                    continue
                }
                sets.union(a, b)
                imagesOfRoot[ra] = nil
                imagesOfRoot[rb] = nil
                imagesOfRoot[sets.find(a)] = (ia + ib).sorted()
            }
        }
        // Group linked keypoints by their root; singletons are not tracks.
        var members: [Int: [Int]] = [:]
        for node in 0 ..< offsets.last! where sets.size(of: node) > 1 { members[sets.find(node), default: []].append(node) }
        trackOfKeypoint = keypointCounts.map { [Int32](repeating: -1, count: $0) }
        for root in members.keys.sorted() {
            let track = Int32(count)
            for node in members[root]! {   // ascending, hence in image order
                let image = Self.image(of: node, offsets: offsets)
                elements.append(TrackElement(image: image, keypoint: node - offsets[image]))
                trackOfKeypoint[image][node - offsets[image]] = track
            }
            starts.append(elements.count)
        }
    }

    private static func image(of node: Int, offsets: [Int]) -> Int {
        var low = 0, high = offsets.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if offsets[mid] <= node { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

/// Union–find with path halving and union by size.
struct DisjointSets {
    private var parent: [Int32]
    private var sizes: [Int32]

    init(count: Int) {
        parent = (0 ..< count).map { Int32($0) }
        sizes = [Int32](repeating: 1, count: count)
    }

    mutating func find(_ node: Int) -> Int {
        var x = node
        while Int(parent[x]) != x {
            parent[x] = parent[Int(parent[x])]
            x = Int(parent[x])
        }
        return x
    }

    mutating func union(_ a: Int, _ b: Int) {
        var ra = find(a), rb = find(b)
        guard ra != rb else { return }
        if sizes[ra] < sizes[rb] { swap(&ra, &rb) }
        parent[rb] = Int32(ra)
        sizes[ra] += sizes[rb]
    }

    mutating func size(of node: Int) -> Int { Int(sizes[find(node)]) }
}
