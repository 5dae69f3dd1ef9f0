/// The colour of a plain backdrop across the frame: per channel a constant plus a linear
/// gradient, fitted to the border band of a cell image (see `SubjectMask`).
///
/// Uneven light across a sheet or wall is close to linear over a photo, so a plane absorbs it
/// and the garment stands out against the backdrop where it lies, not against one mean colour.
/// The fit starts from the border's per-channel median and is refined by least squares over
/// the cells within three median distances of the current fit (at least
/// `SubjectMask.minimumThreshold`), four times: a garment reaching the border is left out as
/// long as it covers under half of it.
struct BackdropModel {
    /// The colour at the centre of the frame.
    var constant: SIMD3<Double>
    /// Change from the centre to the right edge, and to the bottom edge.
    var alongX: SIMD3<Double>
    var alongY: SIMD3<Double>
    /// Fraction of the border cells the final fit accepts.
    var inlierFraction: Double
    /// 95th percentile of the accepted cells' distances from the fit.
    var spread: Double
    let width: Int
    let height: Int

    /// Fits the border band of `cells` (RGB, row by row): 1/40 of the shorter side, 3 cells for
    /// a photo, since a thin margin of backdrop is often all a tight shot leaves. Nil when the
    /// image is too small to have one.
    init?(cells: [UInt8], width: Int, height: Int) {
        self.width = width
        self.height = height
        let band = max(1, min(width, height) / 40)
        var us: [Double] = [], vs: [Double] = [], colours: [SIMD3<Double>] = []
        var channelCounts = [Int](repeating: 0, count: 3 * 256)
        for y in 0 ..< height {
            for x in 0 ..< width where x < band || x >= width - band || y < band || y >= height - band {
                let i = 3 * (y * width + x)
                let (u, v) = Self.coordinates(x, y, width, height)
                us.append(u)
                vs.append(v)
                colours.append(SIMD3(Double(cells[i]), Double(cells[i + 1]), Double(cells[i + 2])))
                for c in 0 ..< 3 { channelCounts[c * 256 + Int(cells[i + c])] += 1 }
            }
        }
        guard colours.count >= 16 else { return nil }
        func channelMedian(_ c: Int) -> Double {
            var seen = 0
            for value in 0 ..< 256 {
                seen += channelCounts[c * 256 + value]
                if 2 * seen > colours.count { return Double(value) }
            }
            return 255
        }
        constant = SIMD3(channelMedian(0), channelMedian(1), channelMedian(2))
        alongX = .zero
        alongY = .zero
        inlierFraction = 0
        spread = 0

        var distances = [Double](repeating: 0, count: colours.count)
        var inliers = [Bool](repeating: true, count: colours.count)
        for round in 0 ... 4 {
            for i in colours.indices { distances[i] = Self.distance(colours[i], colour(u: us[i], v: vs[i])) }
            let cut = max(SubjectMask.minimumThreshold, 3 * Self.quantile(distances, 0.5))
            for i in colours.indices { inliers[i] = distances[i] <= cut }
            if round == 4 { break }
            fit(us, vs, colours, inliers)
        }
        let accepted = distances.indices.filter { inliers[$0] }.map { distances[$0] }
        inlierFraction = Double(accepted.count) / Double(colours.count)
        spread = accepted.isEmpty ? .infinity : Self.quantile(accepted, 0.95)
    }

    /// The backdrop's colour at cell (x, y).
    func colour(x: Int, y: Int) -> SIMD3<Double> {
        let (u, v) = Self.coordinates(x, y, width, height)
        return colour(u: u, v: v)
    }

    private func colour(u: Double, v: Double) -> SIMD3<Double> {
        constant + alongX * u + alongY * v
    }

    /// How far `colour` is from the backdrop at cell (x, y).
    func distance(_ colour: SIMD3<Double>, x: Int, y: Int) -> Double {
        Self.distance(colour, self.colour(x: x, y: y))
    }

    /// |Δluma| + |Δ(R − G)| + |Δ((R + G)/2 − B)|: a change of lightness counts once, and a change
    /// of hue about as much as the channels move, so a beige shirt on a white sheet stands out
    /// as well as a navy one.
    static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        let luma = 0.299 * d.x + 0.587 * d.y + 0.114 * d.z
        return abs(luma) + abs(d.x - d.y) + abs((d.x + d.y) * 0.5 - d.z)
    }

    /// Cell centres mapped to −1…1 across the frame.
    private static func coordinates(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> (Double, Double) {
        ((Double(x) + 0.5) / Double(width) * 2 - 1, (Double(y) + 0.5) / Double(height) * 2 - 1)
    }

    /// Least squares over the inliers: the normal equations of [1 u v] shared by the three
    /// channels, solved by the adjugate; a constant (their mean) when the positions are
    /// degenerate.
    private mutating func fit(_ us: [Double], _ vs: [Double], _ colours: [SIMD3<Double>], _ inliers: [Bool]) {
        var s = 0.0, su = 0.0, sv = 0.0, suu = 0.0, suv = 0.0, svv = 0.0
        var c = SIMD3<Double>.zero, cu = SIMD3<Double>.zero, cv = SIMD3<Double>.zero
        for i in colours.indices where inliers[i] {
            let (u, v) = (us[i], vs[i])
            s += 1; su += u; sv += v; suu += u * u; suv += u * v; svv += v * v
            c += colours[i]; cu += colours[i] * u; cv += colours[i] * v
        }
        guard s > 0 else { return }
        // Adjugate of [[s, su, sv], [su, suu, suv], [sv, suv, svv]] (symmetric).
        let a00 = suu * svv - suv * suv, a01 = sv * suv - su * svv, a02 = su * suv - sv * suu
        let a11 = s * svv - sv * sv, a12 = su * sv - s * suv, a22 = s * suu - su * su
        let determinant = s * a00 + su * a01 + sv * a02
        guard determinant > 1e-9 * s * s * s else {
            (constant, alongX, alongY) = (c / s, .zero, .zero)
            return
        }
        constant = (c * a00 + cu * a01 + cv * a02) / determinant
        alongX = (c * a01 + cu * a11 + cv * a12) / determinant
        alongY = (c * a02 + cu * a12 + cv * a22) / determinant
    }

    /// The `q` quantile of non-negative `values` to half a level (the upper edge of its bin of
    /// a histogram; values past 1024 share the last bin), without sorting.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let bins = 2048
        var counts = [Int](repeating: 0, count: bins)
        for value in values { counts[min(bins - 1, Int(max(0, value) * 2))] += 1 }
        let wanted = max(1, Int((q * Double(values.count)).rounded(.up)))
        var seen = 0
        for bin in 0 ..< bins {
            seen += counts[bin]
            if seen >= wanted { return Double(bin + 1) / 2 }
        }
        return Double(bins) / 2
    }
}
