import AtelierImaging

/// The pixels the networks see, cut and levelled exactly as `training/care/data.py` does it at
/// training time (`resample_weights`, `crop_for_box`, `normalize_crop`, `normalize_image`): a
/// network only recognises what it was shown, so the two must not drift apart.
enum CareCrop {
    /// The classifier looks at the symbol's box squared and widened by this factor.
    static let margin = 1.25

    /// A region of an image, in pixels, possibly reaching outside it.
    struct Region: Equatable {
        var x0, y0, x1, y1: Double
    }

    /// The square region around a symbol box that the classifier is shown.
    static func square(around box: SymbolBox, scale: Double = 1) -> Region {
        let side = max(box.width, box.height) * margin * scale
        let cx = box.x + box.width / 2, cy = box.y + box.height / 2
        return Region(x0: cx - side / 2, y0: cy - side / 2, x1: cx + side / 2, y1: cy + side / 2)
    }

    /// Sparse weights mapping source pixels to `count` outputs spanning [start, end): the mean of
    /// the covered pixels (by overlap) when shrinking, linear interpolation when enlarging; pixels
    /// outside [0, limit) repeat the edge.
    static func weights(from start: Double, to end: Double, count: Int, limit: Int) -> [[(index: Int, weight: Double)]] {
        let scale = (end - start) / Double(count)
        func clamp(_ j: Int) -> Int { min(max(j, 0), limit - 1) }
        return (0 ..< count).map { i in
            let a = start + Double(i) * scale, b = a + scale
            var taps: [(index: Int, weight: Double)] = []
            func add(_ j: Int, _ w: Double) {
                if let k = taps.firstIndex(where: { $0.index == j }) { taps[k].weight += w } else { taps.append((j, w)) }
            }
            if scale >= 1 {
                var j = Int(a.rounded(.down))
                while Double(j) < b {
                    let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                    if overlap > 0 { add(clamp(j), overlap / scale) }
                    j += 1
                }
            } else {
                let c = (a + b) / 2 - 0.5
                let j = Int(c.rounded(.down))
                let t = c - Double(j)
                add(clamp(j), 1 - t)
                add(clamp(j + 1), t)
            }
            return taps
        }
    }

    /// `region` of a one-channel image resampled to `width`×`height`, rounded to bytes.
    static func resample(_ grey: Image, _ region: Region, width: Int, height: Int) -> [UInt8] {
        precondition(grey.channels == 1)
        let rows = weights(from: region.y0, to: region.y1, count: height, limit: grey.height)
        let columns = weights(from: region.x0, to: region.x1, count: width, limit: grey.width)
        var out = [UInt8](repeating: 0, count: width * height)
        // Rows first, into one intermediate row per output row, then columns; only the source
        // columns some output column reads are summed (a crop is a small part of a photo).
        let used = columns.flatMap { $0.map(\.index) }
        let first = used.min() ?? 0, last = used.max() ?? 0
        var row = [Double](repeating: 0, count: grey.width)
        grey.pixels.withUnsafeBufferPointer { src in
            for (oy, taps) in rows.enumerated() {
                for x in first ... last { row[x] = 0 }
                for tap in taps {
                    let base = tap.index * grey.width
                    for x in first ... last { row[x] += tap.weight * Double(src[base + x]) }
                }
                for (ox, taps) in columns.enumerated() {
                    var sum = 0.0
                    for tap in taps { sum += tap.weight * row[tap.index] }
                    out[oy * width + ox] = UInt8(min(255, max(0, (sum + 0.5).rounded(.down))))
                }
            }
        }
        return out
    }

    /// The 2nd and 98th (or other) percentiles of bytes, from their histogram, as numpy's
    /// `searchsorted` finds them in `percentile_levels`.
    static func levels(_ values: [UInt8], low: Double, high: Double) -> (lo: Int, hi: Int, histogram: [Int]) {
        var histogram = [Int](repeating: 0, count: 256)
        for v in values { histogram[Int(v)] += 1 }
        let n = Double(values.count)
        var cumulative = 0, lo = 256, hi = 256
        for v in 0 ..< 256 {
            cumulative += histogram[v]
            if lo == 256, Double(cumulative) > low * n { lo = v }
            if hi == 256, Double(cumulative) >= high * n { hi = v }
        }
        return (lo, max(hi, lo + 1), histogram)
    }

    /// A classifier crop levelled to [0, 1] between its 2nd and 98th percentiles (at least 24
    /// levels apart, so a blank crop stays flat) and turned so that its background is light.
    static func normalizedCrop(_ crop: [UInt8]) -> [Float] {
        let (lo, stretchedHi, histogram) = levels(crop, low: 0.02, high: 0.98)
        let hi = max(stretchedHi, lo + 24)
        let median = self.median(histogram, count: crop.count)
        let invert = median < Double(lo + hi) / 2
        let range = Float(hi - lo)
        return crop.map { v in
            let x = min(1, max(0, (Float(v) - Float(lo)) / range))
            return invert ? 1 - x : x
        }
    }

    /// The detector's input: the image levelled between its 1st and 99th percentiles.
    static func normalizedImage(_ pixels: [UInt8]) -> [Float] {
        let (lo, stretchedHi, _) = levels(pixels, low: 0.01, high: 0.99)
        let range = Float(max(stretchedHi, lo + 24) - lo)
        return pixels.map { min(1, max(0, (Float($0) - Float(lo)) / range)) }
    }

    /// numpy's median of the values a histogram counts (the mean of the two middle ones when
    /// their number is even).
    static func median(_ histogram: [Int], count: Int) -> Double {
        func value(at rank: Int) -> Int {
            var seen = 0
            for v in 0 ..< 256 {
                seen += histogram[v]
                if seen > rank { return v }
            }
            return 255
        }
        if count % 2 == 1 { return Double(value(at: count / 2)) }
        return Double(value(at: count / 2 - 1) + value(at: count / 2)) / 2
    }
}
