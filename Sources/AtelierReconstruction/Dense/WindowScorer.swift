import AtelierImaging
import Foundation
/// The photometric cost of a plane hypothesis at one reference pixel: 1 − NCC between the
/// reference window and each source view's window warped through the plane's homography, with
/// bilateral weights (samples that differ from the centre pixel, likely across an edge, count
/// less), averaged over the best `bestViews` sources. 2 when the window has no texture to match or
/// too few views see the plane.
///
/// The reference window's weights and centred values are computed once per pixel and reused
/// for every hypothesis tried there.
struct WindowScorer {
    private let referenceGrey: [Float]
    private let width: Int
    private let height: Int
    private let sourceGreys: [[Float]]
    private let sourceSizes: [(width: Int, height: Int)]
    private let geometry: [PatchMatchStereo.SourceGeometry]
    private let bestViews: Int
    private let focal: Float
    private let centre: SIMD2<Float>
    /// Window sample offsets from the centre pixel.
    private let offsets: [SIMD2<Float>]
    private let spatialWeights: [Float]
    /// The window's half-width in pixels.
    private let radius: Float
    /// The offsets in groups of four (padded with zero-weight samples at the centre), so the
    /// warped samples are read and summed four at a time.
    private let offsetX4: [SIMD4<Float>]
    private let offsetY4: [SIMD4<Float>]
    private var weights4: [SIMD4<Float>]
    private var centred4: [SIMD4<Float>]

    private var cachedPixel = -1
    private var weights: [Float]
    private var centred: [Float]
    private var referenceNorm: Float = 0
    private var costs: [Float]

    init(reference: DenseView, sources: [DenseView], geometry: [PatchMatchStereo.SourceGeometry], options: PatchMatchOptions,
         focal: Float, centre: SIMD2<Float>) {
        referenceGrey = reference.grey
        width = reference.width
        height = reference.height
        sourceGreys = sources.map(\.grey)
        sourceSizes = sources.map { ($0.width, $0.height) }
        self.geometry = geometry
        bestViews = max(1, min(options.bestViews, sources.count))
        self.focal = focal
        self.centre = centre
        var offsets: [SIMD2<Float>] = [], spatial: [Float] = []
        let r = options.windowRadius, step = max(1, options.windowStep)
        for dy in stride(from: -r, through: r, by: step) {
            for dx in stride(from: -r, through: r, by: step) {
                offsets.append(SIMD2(Float(dx), Float(dy)))
                spatial.append(Float(-(Double(dx * dx + dy * dy)) / (2 * Double(r * r))))
            }
        }
        self.offsets = offsets
        spatialWeights = spatial
        radius = Float(r)
        let groups = (offsets.count + 3) / 4
        var x4 = [SIMD4<Float>](repeating: .zero, count: groups), y4 = x4
        for (k, o) in offsets.enumerated() {
            x4[k / 4][k % 4] = o.x
            y4[k / 4][k % 4] = o.y
        }
        offsetX4 = x4
        offsetY4 = y4
        weights4 = [SIMD4<Float>](repeating: .zero, count: groups)
        centred4 = weights4
        weights = [Float](repeating: 0, count: offsets.count)
        centred = [Float](repeating: 0, count: offsets.count)
        costs = [Float](repeating: 2, count: sources.count)
    }

    /// Grey level at a continuous position (integer coordinates at pixel centres), clamped to
    /// just inside the border, so all four texels of the bilinear read are on the image.
    @inline(__always)
    private static func sample(_ grey: UnsafeBufferPointer<Float>, _ w: Int, _ h: Int, _ u: Float, _ v: Float) -> Float {
        let x = min(max(u, 0), Float(w - 1) - 0.001), y = min(max(v, 0), Float(h - 1) - 0.001)
        return BilinearSampler(FloatTexels(grey, width: w, height: h)).sampleInside(x: x, y: y)
    }

    private mutating func prepare(_ x: Int, _ y: Int) {
        let pixel = y * width + x
        guard pixel != cachedPixel else { return }
        cachedPixel = pixel
        referenceGrey.withUnsafeBufferPointer { grey in
            let centreValue = grey[pixel]
            var weightSum: Float = 0, mean: Float = 0
            for k in offsets.indices {
                let value = Self.sample(grey, width, height, Float(x) + offsets[k].x, Float(y) + offsets[k].y)
                let difference = value - centreValue
                let w = expf(spatialWeights[k] - difference * difference / (2 * 0.1 * 0.1))
                weights[k] = w
                centred[k] = value
                weightSum += w
                mean += w * value
            }
            mean /= weightSum
            var norm: Float = 0
            for k in offsets.indices {
                weights[k] /= weightSum
                centred[k] -= mean
                norm += weights[k] * centred[k] * centred[k]
            }
            referenceNorm = norm
            for k in offsets.indices {
                weights4[k / 4][k % 4] = weights[k]
                centred4[k / 4][k % 4] = centred[k]
            }
        }
    }

    /// The cost of the plane through the point at `depth` on pixel (x, y)'s ray with `normal`
    /// (reference camera frame). Once enough sources are scored to show the cost cannot come
    /// under `bound` (the best cost so far), it stops and returns a value no lower than `bound`.
    mutating func cost(x: Int, y: Int, depth: Float, normal: SIMD3<Float>, bound: Float = .infinity) -> Float {
        prepare(x, y)
        // A flat window (standard deviation under about 0.4 % of full scale) cannot be matched.
        guard referenceNorm > 1.6e-5 else { return 2 }
        let px = Float(x) + 0.5, py = Float(y) + 0.5
        let ray = SIMD3((px - centre.x) / focal, (py - centre.y) / focal, 1)
        let q = depth * (normal * ray).sum()
        guard q < 0 else { return 2 }
        // c = Kr⁻ᵀ n / q.
        let c = SIMD3(normal.x / focal, normal.y / focal, normal.z - (centre.x * normal.x + centre.y * normal.y) / focal) / q
        let sourceCount = geometry.count
        for s in geometry.indices {
            // The sources not yet scored could each cost 0 at best: with `unscored` of them, the
            // mean of the best `bestViews` is at least the sum of the smallest bestViews − unscored
            // scored costs over bestViews.
            let unscored = sourceCount - s
            if s > 0 && unscored < bestViews && bound < .infinity {
                if lowerBound(scored: s, needed: bestViews - unscored) >= bound { return bound }
            }
            let g = geometry[s]
            let h0 = g.a.0 + g.b.x * c, h1 = g.a.1 + g.b.y * c, h2 = g.a.2 + g.b.z * c
            let p = SIMD3(px, py, 1)
            let base = SIMD3((h0 * p).sum(), (h1 * p).sum(), (h2 * p).sum())
            let along = SIMD3(h0.x, h1.x, h2.x), down = SIMD3(h0.y, h1.y, h2.y)
            let size = sourceSizes[s]
            guard base.z > 0 else { costs[s] = 2; continue }
            let cu = base.x / base.z, cv = base.y / base.z
            guard cu >= 0, cv >= 0, cu < Float(size.width), cv < Float(size.height) else { costs[s] = 2; continue }
            // Over a window a few pixels wide the homography is affine to well under a hundredth of
            // a pixel: step along its derivative at the centre instead of dividing per sample.
            let inverseZ = 1 / base.z
            let dudx = (along.x - cu * along.z) * inverseZ, dudy = (down.x - cu * down.z) * inverseZ
            let dvdx = (along.y - cv * along.z) * inverseZ, dvdy = (down.y - cv * down.z) * inverseZ
            let u0 = cu - 0.5, v0 = cv - 0.5
            // The window lies inside when its reach, widened by `slack`, does: the samples are
            // summed in another order than the reach, and a rounding error across the last row or
            // column would read past the image's end.
            let slack: Float = 0.01
            let reachU = radius * (abs(dudx) + abs(dudy)) + slack, reachV = radius * (abs(dvdx) + abs(dvdy)) + slack
            let inside = u0 - reachU >= 0 && v0 - reachV >= 0 && u0 + reachU < Float(size.width - 1) && v0 + reachV < Float(size.height - 1)
            var sum4 = SIMD4<Float>(), sum24 = SIMD4<Float>(), cross4 = SIMD4<Float>()
            sourceGreys[s].withUnsafeBufferPointer { grey in
                let sampler = BilinearSampler(FloatTexels(grey, width: size.width, height: size.height))
                let highU = SIMD4<Float>(repeating: Float(size.width - 1) - 0.001), highV = SIMD4<Float>(repeating: Float(size.height - 1) - 0.001)
                for g in offsetX4.indices {
                    let ox = offsetX4[g], oy = offsetY4[g]
                    var u = u0 + ox * dudx + oy * dudy, v = v0 + ox * dvdx + oy * dvdy
                    if !inside {
                        u = u.clamped(lowerBound: .zero, upperBound: highU)
                        v = v.clamped(lowerBound: .zero, upperBound: highV)
                    }
                    let value = sampler.sampleInside(x: u, y: v)
                    let weight = weights4[g]
                    sum4 += weight * value
                    sum24 += weight * value * value
                    cross4 += weight * centred4[g] * value
                }
            }
            let sum = sum4.sum(), sum2 = sum24.sum(), cross = cross4.sum()
            let variance = sum2 - sum * sum
            if variance < 1e-7 { costs[s] = 2; continue }
            let ncc = cross / (referenceNorm * variance).squareRoot()
            costs[s] = 1 - max(-1, min(1, ncc))
        }
        return meanOfBest()
    }

    /// The mean of the `needed` smallest of the first `scored` costs, times needed / bestViews.
    private func lowerBound(scored: Int, needed: Int) -> Float {
        var taken: UInt64 = 0, total: Float = 0
        for _ in 0 ..< needed {
            var best = -1
            for s in 0 ..< scored where taken & (1 << UInt64(s)) == 0 && (best < 0 || costs[s] < costs[best]) { best = s }
            guard best >= 0 else { break }
            taken |= 1 << UInt64(best)
            total += costs[best]
        }
        return total / Float(bestViews)
    }

    private func meanOfBest() -> Float {
        // Mean of the best few.
        var total: Float = 0
        var taken = 0
        var used: UInt64 = 0
        while taken < bestViews {
            var best = -1
            for s in costs.indices where used & (1 << UInt64(s)) == 0 && (best < 0 || costs[s] < costs[best]) { best = s }
            guard best >= 0 else { break }
            used |= 1 << UInt64(best)
            total += costs[best]
            taken += 1
        }
        return taken == 0 ? 2 : total / Float(taken)
    }
}
