import AtelierWardrobe
import AtelierRecords

/// The dominant colours of a garment in a photo, for `atl-classify --task color`.
///
/// `read` works on the photo fitted within `workingSide` pixels:
/// 1. it finds the garment: when the border of the frame is a plain backdrop (one dominant
///    colour, low spread) the pixels near that colour are removed and the largest region of
///    the rest kept; otherwise the central 60% of the frame is used (see `subjectMask`);
/// 2. it drops pixels on colour edges, which are blends of their neighbours (`flatSamples`);
/// 3. it clusters the rest in CIELAB with k-means (k-means++ seeding from a fixed seed, so the
///    same photo always gives the same answer) and merges clusters within CIEDE2000 10 of
///    each other;
/// 4. it gives every garment pixel, edges included, to its nearest colour, and keeps the
///    colours with at least 5% of the garment, largest first.
///
/// Each colour is reported as the cluster's mean in sRGB hex, the nearest everyday clothing
/// colour name, and the laundry group that sorting a wash uses.
public struct GarmentColors: Sendable, Equatable {
    /// The garment's colours, largest share first; empty for an empty image.
    public var colors: [DominantColor]
    /// True when a plain backdrop was found and left out, false when the centre of the frame
    /// was read instead (a busy background, or a close-up where the cloth fills the frame).
    public var backdropExcluded: Bool

    /// The largest colour: the garment's `color` and `colorName`.
    public var primary: DominantColor? { colors.first }

    public init(colors: [DominantColor], backdropExcluded: Bool) {
        self.colors = colors
        self.backdropExcluded = backdropExcluded
    }

    /// The longer side, in pixels, the photo is reduced to before reading (area averaging).
    public static let workingSide = 256
    /// Clusters closer than this CIEDE2000 are one colour (shades of one dye, light and shadow).
    static let mergeDistance = 10.0
    /// Colours under this share of the garment are dropped (trims, buttons, shadows, noise).
    static let minimumShare = 0.05
    /// The k-means seed: any constant, fixed so that results are reproducible.
    static let seed: UInt64 = 0x6172_7469_7374_6521

    /// Reads the dominant colours of the garment in `image`, an upright photo (any channel
    /// count; grey and alpha are made RGB, alpha over white). At most `maxColors` are returned.
    public static func read(_ image: Image, maxColors: Int = 3) -> GarmentColors {
        guard maxColors > 0, image.width > 0, image.height > 0 else { return GarmentColors(colors: [], backdropExcluded: false) }
        let small = image.rgb().fitted(within: workingSide, filter: .box)
        let (width, height) = (small.width, small.height)
        let lab = labPlane(small)
        let (mask, backdropExcluded) = subjectMask(lab, width: width, height: height)
        let samples = flatSamples(lab, mask: mask, width: width, height: height)
        guard !samples.isEmpty else { return GarmentColors(colors: [], backdropExcluded: backdropExcluded) }

        // More clusters than colours asked for, so that merging has something to merge and a
        // colour is not forced to share a cluster with a neighbour.
        var clusters = kMeans(samples, k: min(maxColors + 3, 10))
        merge(&clusters)
        // Shares count every subject pixel, edges included, each with its nearest colour: edge
        // pixels were left out of the means to keep them pure, but leaving them out of the
        // shares would shrink narrow stripes, which have more edge for their area.
        let (shareCounts, subjectCount) = nearestCounts(lab, mask: mask, clusters: clusters)
        let total = Double(subjectCount)
        for c in clusters.indices { clusters[c].count = shareCounts[c] }
        let colors = clusters
            .filter { Double($0.count) >= minimumShare * total }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.mean.l > $1.mean.l }
            .prefix(maxColors)
            .map { cluster -> DominantColor in
                let rgb = cluster.mean.rgb
                return DominantColor(red: rgb.red, green: rgb.green, blue: rgb.blue, share: Double(cluster.count) / total)
            }
        return GarmentColors(colors: Array(colors), backdropExcluded: backdropExcluded)
    }

    /// A colour cluster: its mean in CIELAB and its weight (the samples k-means gave it, then
    /// the subject pixels nearest to it).
    struct Cluster: Sendable, Equatable {
        var mean: Lab
        var count: Int
    }

    /// Lloyd's k-means in CIELAB (Euclidean, so the mean is each cluster's best centre),
    /// seeded by k-means++ (Arthur and Vassilvitskii, "k-means++: The Advantages of Careful
    /// Seeding", SODA 2007) from `seed`. Stops when the centres settle, or after 30 rounds.
    /// Empty clusters are left out.
    static func kMeans(_ samples: [SIMD3<Float>], k: Int) -> [Cluster] {
        var random = SplitMix64(seed: seed)
        var centres: [SIMD3<Float>] = [samples[random.integer(0 ... samples.count - 1)]]
        var nearest = samples.map { squaredDistance($0, centres[0]) }
        while centres.count < k {
            let total = nearest.reduce(0.0) { $0 + Double($1) }
            guard total > 0 else { break }  // fewer distinct colours than k
            var target = random.unit() * total
            var chosen = samples.count - 1
            for (i, d) in nearest.enumerated() {
                target -= Double(d)
                if target < 0 { chosen = i; break }
            }
            let centre = samples[chosen]
            centres.append(centre)
            for i in samples.indices { nearest[i] = min(nearest[i], squaredDistance(samples[i], centre)) }
        }

        var assignment = [Int32](repeating: -1, count: samples.count)
        var sums = [SIMD3<Double>](repeating: .zero, count: centres.count)
        var counts = [Int](repeating: 0, count: centres.count)
        for _ in 0 ..< 30 {
            let changed = assignToNearest(samples, centres: centres, assignment: &assignment, sums: &sums, counts: &counts)
            var moved: Float = 0
            for c in centres.indices where counts[c] > 0 {
                let m = sums[c] / Double(counts[c])
                let centre = SIMD3(Float(m.x), Float(m.y), Float(m.z))
                moved = max(moved, squaredDistance(centre, centres[c]))
                centres[c] = centre
            }
            // Splitting one noisy colour between two clusters converges slowly and to no
            // purpose (merging joins them again): stop once no centre moves 0.05 ΔE*ab.
            if !changed || moved < 0.0025 { break }
        }
        return centres.indices.filter { counts[$0] > 0 }.map { c in
            let m = sums[c] / Double(counts[c])
            return Cluster(mean: Lab(l: m.x, a: m.y, b: m.z), count: counts[c])
        }
    }

    /// One Lloyd round: each sample to its nearest centre, with the sums and counts of the
    /// new means. True when some sample changed cluster.
    static func assignToNearest(_ samples: [SIMD3<Float>], centres: [SIMD3<Float>], assignment: inout [Int32],
                                sums: inout [SIMD3<Double>], counts: inout [Int]) -> Bool {
        let k = centres.count
        let cl = centres.map(\.x), ca = centres.map(\.y), cb = centres.map(\.z)
        var sl = [Double](repeating: 0, count: k), sa = sl, sb = sl
        var n = [Int](repeating: 0, count: k)
        var changed = false
        samples.withUnsafeBufferPointer { s in
            assignment.withUnsafeMutableBufferPointer { a in
                for i in 0 ..< s.count {
                    let p = s[i]
                    let (pl, pa, pb) = (p.x, p.y, p.z)
                    var best = 0, bestDistance = Float.infinity
                    for j in 0 ..< k {
                        let dl = pl - cl[j], da = pa - ca[j], db = pb - cb[j]
                        let d = dl * dl + da * da + db * db
                        if d < bestDistance { (best, bestDistance) = (j, d) }
                    }
                    if a[i] != Int32(best) { a[i] = Int32(best); changed = true }
                    sl[best] += Double(pl)
                    sa[best] += Double(pa)
                    sb[best] += Double(pb)
                    n[best] &+= 1
                }
            }
        }
        for j in 0 ..< k {
            sums[j] = SIMD3(sl[j], sa[j], sb[j])
            counts[j] = n[j]
        }
        return changed
    }

    /// How many subject pixels are nearest (ΔE*ab) to each cluster, and how many there are.
    static func nearestCounts(_ lab: [SIMD3<Float>], mask: [Bool], clusters: [Cluster]) -> (counts: [Int], total: Int) {
        let centres = clusters.map { SIMD3<Float>(Float($0.mean.l), Float($0.mean.a), Float($0.mean.b)) }
        var counts = [Int](repeating: 0, count: centres.count), total = 0
        for i in lab.indices where mask[i] {
            var best = 0, bestDistance = Float.infinity
            for (c, centre) in centres.enumerated() {
                let d = squaredDistance(lab[i], centre)
                if d < bestDistance { (best, bestDistance) = (c, d) }
            }
            counts[best] += 1
            total += 1
        }
        return (counts, total)
    }

    /// Merges the closest pair of clusters while it is within `mergeDistance` (CIEDE2000),
    /// the merged mean weighted by size (greedy agglomerative merging: the pair merged first
    /// is always the most alike).
    static func merge(_ clusters: inout [Cluster]) {
        while clusters.count > 1 {
            var pair = (0, 0), closest = Double.infinity
            for i in clusters.indices {
                for j in clusters.indices where j > i {
                    let d = deltaE2000(clusters[i].mean, clusters[j].mean)
                    if d < closest { (pair, closest) = ((i, j), d) }
                }
            }
            guard closest < mergeDistance else { return }
            let (a, b) = (clusters[pair.0], clusters[pair.1])
            let n = Double(a.count + b.count), wa = Double(a.count) / n, wb = Double(b.count) / n
            clusters[pair.0] = Cluster(mean: Lab(l: a.mean.l * wa + b.mean.l * wb, a: a.mean.a * wa + b.mean.a * wb,
                                                 b: a.mean.b * wa + b.mean.b * wb), count: a.count + b.count)
            clusters.remove(at: pair.1)
        }
    }
}

/// One colour of a garment.
public struct DominantColor: Sendable, Equatable {
    /// "#rrggbb", lower case.
    public var hex: String
    /// The nearest everyday clothing colour name ("navy", "olive", "baby pink"), by CIEDE2000.
    public var name: String
    /// The fraction of the garment's pixels in this colour, 0…1. The shares of a reading need
    /// not add up to 1: colours under 5% and those beyond `maxColors` are not reported.
    public var share: Double
    /// The laundry colour group this colour is washed with.
    public var group: LaundryColorGroup

    /// The colour of an sRGB value, named and grouped as `GarmentColors.read` does (also for
    /// naming a colour a person typed).
    public init(red: UInt8, green: UInt8, blue: UInt8, share: Double = 1) {
        let lab = GarmentColors.Lab(red: red, green: green, blue: blue)
        let digits = Array("0123456789abcdef")
        hex = "#" + String([red, green, blue].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
        name = GarmentColors.colorName(of: lab)
        self.share = share
        group = GarmentColors.group(of: lab)
    }

    /// The colour of "#rrggbb" (or "rrggbb"), or nil when that is not a hex colour.
    public init?(hex text: String, share: Double = 1) {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.utf8.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xff), blue: UInt8(value & 0xff), share: share)
    }
}
