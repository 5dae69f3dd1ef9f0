import AtelierImaging

/// The pixels the networks see, cut and levelled exactly as `training/care/data.py` does it at
/// training time (`resample_weights`, `crop_for_box`, `normalize_crop`, `normalize_image`): a
/// network only recognises what it was shown, so the two must not drift apart.
enum CareCrop {
    /// The classifier looks at the symbol's box squared and widened by this factor.
    static let margin = 1.25

    /// The square region around a symbol box that the classifier is shown.
    static func square(around box: SymbolBox, scale: Double = 1) -> PixelRegion {
        let side = max(box.width, box.height) * margin * scale
        let cx = box.x + box.width / 2, cy = box.y + box.height / 2
        return PixelRegion(x0: cx - side / 2, y0: cy - side / 2, x1: cx + side / 2, y1: cy + side / 2)
    }

    /// `region` of a one-channel image as the networks see it: resampled to `width`×`height` by
    /// area, as `resample_weights` does (`Image.resampled(_:width:height:)`, which gives its bytes).
    static func resample(_ grey: Image, _ region: PixelRegion, width: Int, height: Int) -> [UInt8] {
        precondition(grey.channels == 1)
        return grey.resampled(region, width: width, height: height).pixels
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
