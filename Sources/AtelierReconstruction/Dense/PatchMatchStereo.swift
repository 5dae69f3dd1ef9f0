import AtelierGeometry

/// Settings of PatchMatch multi-view stereo.
public struct PatchMatchOptions: Sendable {
    /// Source views matched against each reference view.
    public var sourceViews = 5
    /// The cost of a hypothesis is the mean over this many best source views (occlusion-robust).
    public var bestViews = 3
    /// Red–black sweeps.
    public var iterations = 5
    /// The window is (2·radius + 1)² pixels, sampled every `windowStep` pixels.
    public var windowRadius = 3
    public var windowStep = 2
    /// Estimates whose cost (1 − NCC) is above this are dropped.
    public var maxCost: Float = 0.45

    public init() {}
}

/// Depth and normal maps by PatchMatch stereo (Bleyer et al. 2011; Galliani et al.'s red–black
/// "Gipuma" propagation, 2015; Schönberger et al.'s view selection, 2016, simplified): every
/// pixel holds a slanted plane hypothesis (depth and normal), scored by bilaterally weighted
/// normalised cross-correlation of its window against each source view through the plane's
/// homography, keeping the mean of the best few views so occlusion in one view does no harm.
/// Starting from random planes, each sweep lets every pixel try its neighbours' planes (half the
/// pixels at a time, like the black squares of a chessboard, so one half reads only the other)
/// and a random perturbation of its own.
///
/// Deterministic: the random numbers are a hash of the view, pixel and sweep.
struct PatchMatchStereo {
    let reference: DenseView
    let sources: [DenseView]
    let depthRange: ClosedRange<Float>
    let options: PatchMatchOptions
    let seed: UInt64

    /// Per source view, the parts of the plane-induced homography H = A + b·cᵀ that do not depend
    /// on the plane: A = Ks·R·Kr⁻¹ and b = Ks·t, with (R, t) taking reference-camera points to the
    /// source camera; c = Kr⁻ᵀ·n / (n·X) carries the plane.
    struct SourceGeometry {
        var a: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)   // rows
        var b: SIMD3<Float>
    }

    func run() -> DepthMap {
        let width = reference.width, height = reference.height
        var map = DepthMap(width: width, height: height)
        let geometry = sources.map { Self.geometry(reference: reference, source: $0) }
        let f = Float(reference.intrinsics.focalLengthPixels)
        let c = SIMD2<Float>(reference.intrinsics.principalPoint)
        let lowInverse = 1 / depthRange.upperBound, highInverse = 1 / depthRange.lowerBound

        func ray(_ x: Int, _ y: Int) -> SIMD3<Float> { SIMD3((Float(x) + 0.5 - c.x) / f, (Float(y) + 0.5 - c.y) / f, 1) }

        var scorer = WindowScorer(reference: reference, sources: sources, geometry: geometry, options: options, focal: f, centre: c)
        // Random start.
        for y in 0 ..< height {
            for x in 0 ..< width where reference.allows(y * width + x) {
                var random = PixelRandom(seed: seed, x: x, y: y, round: 0)
                let o = y * width + x
                let depth = 1 / (lowInverse + random.unit() * (highInverse - lowInverse))
                let normal = random.normalFacing(ray(x, y))
                map.depth[o] = depth
                map.normal[o] = normal
                map.cost[o] = scorer.cost(x: x, y: y, depth: depth, normal: normal)
            }
        }
        let neighbourOffsets: [(Int, Int)] = [(-1, 0), (1, 0), (0, -1), (0, 1), (-5, 0), (5, 0), (0, -5), (0, 5)]
        for iteration in 0 ..< options.iterations {
            let spread = 1 / Float(1 << iteration)
            for colour in 0 ..< 2 {
                for y in 0 ..< height {
                    for x in stride(from: (y + colour) & 1, to: width, by: 2) {
                        let o = y * width + x
                        guard reference.allows(o) else { continue }
                        let r = ray(x, y)
                        var bestDepth = map.depth[o], bestNormal = map.normal[o], bestCost = map.cost[o]
                        func consider(_ depth: Float, _ normal: SIMD3<Float>) {
                            guard depth >= depthRange.lowerBound, depth <= depthRange.upperBound else { return }
                            let cost = scorer.cost(x: x, y: y, depth: depth, normal: normal, bound: bestCost)
                            if cost < bestCost { (bestDepth, bestNormal, bestCost) = (depth, normal, cost) }
                        }
                        for (dx, dy) in neighbourOffsets {
                            let nx = x + dx, ny = y + dy
                            guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                            let n = ny * width + nx
                            guard map.depth[n] > 0 else { continue }
                            // The neighbour's plane, intersected with this pixel's ray.
                            let normal = map.normal[n]
                            let denominator = (normal * r).sum()
                            guard denominator < -1e-3 else { continue }
                            let depth = map.depth[n] * (normal * ray(nx, ny)).sum() / denominator
                            // Converged neighbours mostly offer the plane already held: skip it.
                            if abs(depth - bestDepth) < 1e-4 * bestDepth && (normal * bestNormal).sum() > 0.9999 { continue }
                            consider(depth, normal)
                        }
                        var random = PixelRandom(seed: seed, x: x, y: y, round: 2 * iteration + colour + 1)
                        let jitter = 1 + (random.unit() * 2 - 1) * 0.1 * spread
                        consider(bestDepth * jitter, bestNormal)
                        consider(bestDepth, random.perturb(bestNormal, by: 0.6 * spread, facing: r))
                        consider(1 / (lowInverse + random.unit() * (highInverse - lowInverse)), random.normalFacing(r))
                        map.depth[o] = bestDepth
                        map.normal[o] = bestNormal
                        map.cost[o] = bestCost
                    }
                }
            }
        }
        for o in map.depth.indices where map.cost[o] > options.maxCost || !reference.allows(o) { map.depth[o] = 0 }
        return map
    }

    static func geometry(reference: DenseView, source: DenseView) -> SourceGeometry {
        let rr = reference.pose.camFromWorld, rs = source.pose.camFromWorld
        let relative = rs * rr.transposed
        let t = source.pose.translation - relative * reference.pose.translation
        let ks = source.intrinsics, kr = reference.intrinsics
        // A = Ks · R · Kr⁻¹, row by row.
        let krInverse = Matrix3(rows: SIMD3(1 / kr.focalLengthPixels, 0, -kr.principalPoint.x / kr.focalLengthPixels),
                                SIMD3(0, 1 / kr.focalLengthPixels, -kr.principalPoint.y / kr.focalLengthPixels),
                                SIMD3(0, 0, 1))
        let kSource = Matrix3(rows: SIMD3(ks.focalLengthPixels, 0, ks.principalPoint.x), SIMD3(0, ks.focalLengthPixels, ks.principalPoint.y),
                              SIMD3(0, 0, 1))
        let a = kSource * relative * krInverse
        let b = kSource * t
        return SourceGeometry(a: (SIMD3<Float>(a.row0), SIMD3<Float>(a.row1), SIMD3<Float>(a.row2)), b: SIMD3<Float>(b))
    }
}

/// A counter-based random generator: `SamplingRandom` seeded from a hash of the pixel and the
/// round, so every pixel draws the same numbers whichever thread runs it.
struct PixelRandom {
    var generator: SamplingRandom

    init(seed: UInt64, x: Int, y: Int, round: Int) {
        generator = SamplingRandom(seed: seed ^ (UInt64(truncatingIfNeeded: x) &* 0x9E37_79B9_7F4A_7C15)
            ^ (UInt64(truncatingIfNeeded: y) &* 0xC2B2_AE3D_27D4_EB4F) ^ (UInt64(truncatingIfNeeded: round) &* 0x1656_67B1_9E37_79F9))
    }

    mutating func next() -> UInt64 { generator.next() }

    /// Uniform in [0, 1).
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }

    /// A random unit normal on the half of the sphere that faces back along `ray`, no more than
    /// about 70° from it (steeper planes are seen too obliquely to match).
    mutating func normalFacing(_ ray: SIMD3<Float>) -> SIMD3<Float> {
        let back = -ray / (ray * ray).sum().squareRoot()
        while true {
            let v = SIMD3(unit() * 2 - 1, unit() * 2 - 1, unit() * 2 - 1)
            let length2 = (v * v).sum()
            guard length2 > 1e-4, length2 <= 1 else { continue }
            let n = v / length2.squareRoot()
            let facing = (n * back).sum()
            if abs(facing) > 0.35 { return facing > 0 ? n : -n }
        }
    }

    /// `normal` moved by a random vector of up to `amount`, still facing back along `ray`.
    mutating func perturb(_ normal: SIMD3<Float>, by amount: Float, facing ray: SIMD3<Float>) -> SIMD3<Float> {
        let v = SIMD3(unit() * 2 - 1, unit() * 2 - 1, unit() * 2 - 1) * amount
        var n = normal + v
        n /= max(1e-6, (n * n).sum().squareRoot())
        let back = -ray / (ray * ray).sum().squareRoot()
        return (n * back).sum() > 0.35 ? n : normal
    }
}
