import AtelierImaging
import Foundation

/// Two photos too plain for local features, compared pixel by pixel.
///
/// A plain photo (sky, a wall, smooth fabric) has too few SIFT keypoints for the features to
/// confirm or refute a pair, and a crop of it is too far in pHash for the hash to. Its pixels
/// still tell: the second photo is warped onto the first by the affine map that maximises their
/// correlation (ECC: Evangelidis and Psarakis, "Parametric Image Alignment Using Enhanced
/// Correlation Coefficient Maximization", PAMI 2008), started from the whole photo and from each
/// window a crop can be (`PerceptualHash.windows`, either photo inside the other), and then the
/// two are compared by their fine detail: each thumbnail less its blur. Smooth gradients line
/// up with any other gradient, so the map is found on the smooth pictures and judged on the
/// detail, which two different photos do not share.
public struct DenseThumbnail: Sendable {
    /// The longer side thumbnails are made at: the detail an edit leaves (a crop resized back,
    /// JPEG at quality 55) survives at this size, and the alignment stays cheap.
    public static let side = 96

    let width: Int, height: Int
    /// Lightly blurred, for the alignment.
    let smooth: [Float]
    let gradientX: [Float], gradientY: [Float]
    /// The picture less a wider blur: what is compared.
    let detail: [Float]
    /// The detail's standard deviation, in grey levels: under `DenseComparison.minDetail` the
    /// photo is too blank to judge.
    let detailDeviation: Float

    /// The thumbnail of a grey image (any size; the longer side becomes `side`).
    public init(_ image: Image) {
        let grey = image.grey()
        let longer = max(grey.width, grey.height, 1)
        let w = max(4, (grey.width * Self.side + longer / 2) / longer), h = max(4, (grey.height * Self.side + longer / 2) / longer)
        let small = grey.resized(width: w, height: h, filter: .lanczos3)
        let pixels = small.pixels.map(Float.init)
        width = w
        height = h
        smooth = Self.blurred(pixels, width: w, height: h, sigma: 1)
        detail = zip(pixels, Self.blurred(pixels, width: w, height: h, sigma: 2.5)).map { $0 - $1 }
        var gx = [Float](repeating: 0, count: w * h), gy = gx
        for y in 0 ..< h {
            for x in 0 ..< w {
                let left = smooth[y * w + max(0, x - 1)], right = smooth[y * w + min(w - 1, x + 1)]
                let up = smooth[max(0, y - 1) * w + x], down = smooth[min(h - 1, y + 1) * w + x]
                gx[y * w + x] = (right - left) / 2
                gy[y * w + x] = (down - up) / 2
            }
        }
        gradientX = gx
        gradientY = gy
        let mean = detail.reduce(0, +) / Float(detail.count)
        detailDeviation = (detail.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(detail.count)).squareRoot()
    }

    /// A separable Gaussian blur, edges clamped.
    static func blurred(_ pixels: [Float], width w: Int, height h: Int, sigma: Float) -> [Float] {
        let radius = Int((3 * sigma).rounded(.up))
        var kernel = (-radius ... radius).map { exp(-Float($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        var across = [Float](repeating: 0, count: w * h), out = across
        for y in 0 ..< h {
            for x in 0 ..< w {
                var sum: Float = 0
                for k in -radius ... radius { sum += kernel[k + radius] * pixels[y * w + min(w - 1, max(0, x + k))] }
                across[y * w + x] = sum
            }
        }
        for y in 0 ..< h {
            for x in 0 ..< w {
                var sum: Float = 0
                for k in -radius ... radius { sum += kernel[k + radius] * across[min(h - 1, max(0, y + k)) * w + x] }
                out[y * w + x] = sum
            }
        }
        return out
    }
}

/// The verdict of `DenseThumbnail`s on a pair (see there).
public enum DenseComparison {
    /// Detail correlation at or above which the pair is the same picture, and below which it
    /// is not (between them, the hash decides).
    public static let sameAbove: Float = 0.95
    public static let differentBelow: Float = 0.45
    /// The most shear a map may have (after its turn is taken out): an edit crops, resizes,
    /// stretches along the photo's axes and turns, none of which shears. A repeating pattern
    /// (a rack, a grid, a weave) in two different photos lines up only under a sheared map.
    public static let maxShear = 0.03
    /// Detail deviation (grey levels) under which a photo is too blank to judge.
    public static let minDetail: Float = 1.5
    /// The share of the first photo the map must keep inside the second.
    static let minOverlap: Float = 0.5

    /// What the pixels say, and the figures behind it.
    public struct Result: Sendable, Equatable {
        /// True, false, or nil when the photos are too blank or the correlation is in between.
        public var isDuplicate: Bool?
        /// The detail correlation at the best map (-1 when no map kept enough overlap).
        public var detailCorrelation: Float
        public var map: AffineTransform2D?
    }

    /// Whether `first` and `second` are the same picture, as far as their pixels tell;
    /// `isEdit` says which maps an edit can make (in pixels over the longer side).
    public static func compare(_ first: DenseThumbnail, _ second: DenseThumbnail,
                               isEdit: (AffineTransform2D) -> Bool) -> Result {
        guard min(first.detailDeviation, second.detailDeviation) >= minDetail else {
            return Result(isDuplicate: nil, detailCorrelation: 0, map: nil)
        }
        // Start from the whole photo and from each window, either way round; keep the few that
        // correlate best before refining.
        var starts: [(score: Float, map: AffineTransform2D)] = []
        let windows = [PerceptualHash.Window.whole] + PerceptualHash.windows
        for window in windows {
            for firstInside in [false, true] {
                if firstInside && window.width == 1 && window.height == 1 { continue }
                let map = start(first, second, window: window, firstIsTheWindow: firstInside)
                starts.append((correlation(first, second, map: map, step: 2).smooth, map))
            }
        }
        starts.sort { $0.score > $1.score }
        var best = Result(isDuplicate: false, detailCorrelation: -1, map: nil)
        for candidate in starts.prefix(3) {
            // Most of the way on every other pixel of every other row, then the last steps on all.
            guard let rough = align(first, second, from: candidate.map, step: 2, iterations: 25),
                  let map = align(first, second, from: rough, step: 1, iterations: 8) else { continue }
            let scores = correlation(first, second, map: map, step: 1)
            guard scores.overlap >= minOverlap, shear(of: map) <= maxShear, isEdit(normalised(map, first, second)) else { continue }
            if scores.detail > best.detailCorrelation { best = Result(isDuplicate: nil, detailCorrelation: scores.detail, map: map) }
        }
        best.isDuplicate = best.detailCorrelation >= sameAbove ? true : best.detailCorrelation < differentBelow ? false : nil
        return best
    }

    /// The map from the first thumbnail's pixels to the second's that the window says: the first
    /// photo shows `window` of the second, or (`firstIsTheWindow`) the second shows it of the first.
    static func start(_ first: DenseThumbnail, _ second: DenseThumbnail, window: PerceptualHash.Window,
                      firstIsTheWindow: Bool) -> AffineTransform2D {
        let x0 = (1 - window.width) * window.alongX, y0 = (1 - window.height) * window.alongY
        let w1 = Double(first.width), h1 = Double(first.height), w2 = Double(second.width), h2 = Double(second.height)
        // Normalised positions n1 = (u + 0.5) / w1 in the first, n2 in the second.
        if !firstIsTheWindow {
            // n2 = x0 + width · n1
            let a = window.width * w2 / w1, d = window.height * h2 / h1
            return AffineTransform2D(a: a, b: 0, c: 0, d: d, tx: x0 * w2 + a * 0.5 - 0.5, ty: y0 * h2 + d * 0.5 - 0.5)
        }
        // n1 = x0 + width · n2, so n2 = (n1 - x0) / width
        let a = w2 / (window.width * w1), d = h2 / (window.height * h1)
        return AffineTransform2D(a: a, b: 0, c: 0, d: d, tx: a * 0.5 - x0 / window.width * w2 - 0.5,
                                 ty: d * 0.5 - y0 / window.height * h2 - 0.5)
    }

    /// The shear of the map's linear part A: with A = R·S (R a turn, S symmetric), S's
    /// off-diagonal entry over the geometric mean of its diagonal ones.
    static func shear(of map: AffineTransform2D) -> Double {
        let angle = map.rotationAngle, c = cos(-angle), s = sin(-angle)
        let s11 = c * map.a - s * map.c, s12 = c * map.b - s * map.d
        let s21 = s * map.a + c * map.c, s22 = s * map.b + c * map.d
        let scale = abs(s11 * s22).squareRoot()
        return scale > 0 ? abs(s12 + s21) / 2 / scale : .infinity
    }

    /// The map in positions over each thumbnail's longer side, as `NearDuplicateVerifier.isEdit`
    /// reads maps (a resized copy at scale 1).
    static func normalised(_ map: AffineTransform2D, _ first: DenseThumbnail, _ second: DenseThumbnail) -> AffineTransform2D {
        let s1 = Double(max(first.width, first.height)), s2 = Double(max(second.width, second.height))
        let k = s1 / s2
        return AffineTransform2D(a: map.a * k, b: map.b * k, c: map.c * k, d: map.d * k, tx: map.tx / s2, ty: map.ty / s2)
    }

    /// Zero-mean correlations of the smooth pictures and of the detail, over the first photo's
    /// pixels (every `step`-th) that the map puts inside the second, and the share of them.
    static func correlation(_ first: DenseThumbnail, _ second: DenseThumbnail, map: AffineTransform2D,
                            step: Int) -> (smooth: Float, detail: Float, overlap: Float) {
        var n = 0, total = 0
        var s = Moments(), d = Moments()
        for v in stride(from: 0, to: first.height, by: step) {
            for u in stride(from: 0, to: first.width, by: step) {
                total += 1
                let p = map.apply(SIMD2(Double(u), Double(v)))
                guard let (i, fx, fy) = cell(second, x: p.x, y: p.y) else { continue }
                n += 1
                s.add(first.smooth[v * first.width + u], bilinear(second.smooth, second.width, i, fx, fy))
                d.add(first.detail[v * first.width + u], bilinear(second.detail, second.width, i, fx, fy))
            }
        }
        guard n >= 16 else { return (-1, -1, 0) }
        return (s.correlation, d.correlation, Float(n) / Float(max(1, total)))
    }

    /// ECC with an affine map, from `start`, over every `step`-th pixel of every `step`-th row of
    /// the first thumbnail, for at most `iterations` steps; nil when it breaks down (too little
    /// overlap, a singular system).
    static func align(_ first: DenseThumbnail, _ second: DenseThumbnail, from start: AffineTransform2D,
                      step: Int, iterations: Int) -> AffineTransform2D? {
        // p = [a, c, b, d, tx, ty]: x' = a u + b v + tx, y' = c u + d v + ty.
        var p = [start.a, start.c, start.b, start.d, start.tx, start.ty]
        let count = first.width * first.height
        var template = [Float](repeating: 0, count: count), warped = template, gx = template, gy = template
        var valid = [Bool](repeating: false, count: count)
        let sampled = ((first.height + step - 1) / step) * ((first.width + step - 1) / step)
        for _ in 0 ..< iterations {
            var n = 0
            var meanT: Double = 0, meanW: Double = 0
            for v in stride(from: 0, to: first.height, by: step) {
                for u in stride(from: 0, to: first.width, by: step) {
                    let k = v * first.width + u
                    let x = p[0] * Double(u) + p[2] * Double(v) + p[4], y = p[1] * Double(u) + p[3] * Double(v) + p[5]
                    guard let (i, fx, fy) = cell(second, x: x, y: y) else { valid[k] = false; continue }
                    valid[k] = true
                    n += 1
                    template[k] = first.smooth[k]
                    warped[k] = bilinear(second.smooth, second.width, i, fx, fy)
                    gx[k] = bilinear(second.gradientX, second.width, i, fx, fy)
                    gy[k] = bilinear(second.gradientY, second.width, i, fx, fy)
                    meanT += Double(template[k])
                    meanW += Double(warped[k])
                }
            }
            guard n >= sampled / 4 else { return nil }
            meanT /= Double(n)
            meanW /= Double(n)
            var hessian = [Double](repeating: 0, count: 36)
            var projectionW = [Double](repeating: 0, count: 6), projectionT = projectionW
            var normW: Double = 0, correlationTW: Double = 0
            var jacobian = [Double](repeating: 0, count: 6)
            for v in stride(from: 0, to: first.height, by: step) {
                for u in stride(from: 0, to: first.width, by: step) {
                    let k = v * first.width + u
                    guard valid[k] else { continue }
                    let t = Double(template[k]) - meanT, w = Double(warped[k]) - meanW
                    let gxk = Double(gx[k]), gyk = Double(gy[k]), uu = Double(u), vv = Double(v)
                    jacobian[0] = gxk * uu; jacobian[1] = gyk * uu; jacobian[2] = gxk * vv
                    jacobian[3] = gyk * vv; jacobian[4] = gxk; jacobian[5] = gyk
                    for r in 0 ..< 6 {
                        projectionW[r] += jacobian[r] * w
                        projectionT[r] += jacobian[r] * t
                        for c in r ..< 6 { hessian[r * 6 + c] += jacobian[r] * jacobian[c] }
                    }
                    normW += w * w
                    correlationTW += t * w
                }
            }
            for r in 0 ..< 6 { for c in 0 ..< r { hessian[r * 6 + c] = hessian[c * 6 + r] } }
            guard let hw = PoseLinearSystem.solve(hessian, projectionW, size: 6) else { return nil }
            let lambdaN = normW - zip(projectionW, hw).reduce(0) { $0 + $1.0 * $1.1 }
            let lambdaD = correlationTW - zip(projectionT, hw).reduce(0) { $0 + $1.0 * $1.1 }
            guard lambdaD > 0 else { return nil }
            let lambda = lambdaN / lambdaD
            // The error image's projection: λ·t − w, through the Jacobian.
            var projectionE = [Double](repeating: 0, count: 6)
            for r in 0 ..< 6 { projectionE[r] = lambda * projectionT[r] - projectionW[r] }
            guard let delta = PoseLinearSystem.solve(hessian, projectionE, size: 6) else { return nil }
            for r in 0 ..< 6 { p[r] += delta[r] }
            // Converged when no corner of the first photo moves a hundredth of a pixel.
            let corner = abs(delta[0]) * Double(first.width) + abs(delta[2]) * Double(first.height) + abs(delta[4])
                + abs(delta[1]) * Double(first.width) + abs(delta[3]) * Double(first.height) + abs(delta[5])
            if corner < 0.01 { break }
        }
        guard p.allSatisfy(\.isFinite) else { return nil }
        return AffineTransform2D(a: p[0], b: p[2], c: p[1], d: p[3], tx: p[4], ty: p[5])
    }

    /// The texel index and fractions for a bilinear read at (x, y), nil off the image.
    @inline(__always)
    static func cell(_ image: DenseThumbnail, x: Double, y: Double) -> (Int, Float, Float)? {
        guard x >= 0, y >= 0, x <= Double(image.width - 1), y <= Double(image.height - 1) else { return nil }
        let x0 = min(Int(x), image.width - 2), y0 = min(Int(y), image.height - 2)
        return (y0 * image.width + x0, Float(x - Double(x0)), Float(y - Double(y0)))
    }

    @inline(__always)
    static func bilinear(_ values: [Float], _ width: Int, _ i: Int, _ fx: Float, _ fy: Float) -> Float {
        let top = values[i] + (values[i + 1] - values[i]) * fx
        let bottom = values[i + width] + (values[i + width + 1] - values[i + width]) * fx
        return top + (bottom - top) * fy
    }

    /// Running sums for a Pearson correlation.
    struct Moments {
        var n: Double = 0, sx: Double = 0, sy: Double = 0, sxx: Double = 0, syy: Double = 0, sxy: Double = 0

        mutating func add(_ x: Float, _ y: Float) {
            let x = Double(x), y = Double(y)
            n += 1; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
        }

        var correlation: Float {
            let vx = sxx - sx * sx / n, vy = syy - sy * sy / n
            guard vx > 0, vy > 0 else { return 0 }
            return Float((sxy - sx * sy / n) / (vx * vy).squareRoot())
        }
    }
}
