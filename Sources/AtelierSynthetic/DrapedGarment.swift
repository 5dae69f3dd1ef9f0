import AtelierGeometry
import AtelierRecords
import Foundation

/// A garment-like surface: a cloth draped over a rounded form (a dress form or a stool with a
/// cushion), taut over the domed top and hanging in soft folds that deepen towards a hem just
/// above the ground.
///
/// +Y is up, the ground is the plane y = 0, the form stands on the vertical axis through the
/// origin, and units are metres. The surface is open at the hem (one boundary loop) and closed at
/// the top. It is built as a surface of revolution of a profile (a quarter ellipse over the top
/// with a neck stump, then a drop drawn in at the waist and flaring to the hem), squashed front
/// to back into an oval (flatter at the shoulders, like a torso), then displaced along the
/// profile's normal by a seeded sum of smooth terms: vertical folds (harmonics of the azimuth and narrow
/// pleats) that grow from the shoulder to the hem, and wrinkles (elongated Gaussian bumps at
/// random angles) everywhere. Texture coordinates are those of the flat cloth: the point at arc
/// length `s` from the top centre, at azimuth θ, maps to `(½ + ρ cos θ, ½ + ρ sin θ)` with `ρ`
/// proportional to `s`, so the print has no seam and no pole, and the cloth's spare width shows
/// up as folds, as it would on a real drape.
public struct DrapedGarment: Sendable, Equatable {
    /// Height of the top of the shoulders above the ground (the neck rises above it).
    public var heightMetres: Double = 0.6
    /// Half-width of the domed top where it turns down into the drop, and how far it drops.
    public var shoulderRadiusMetres: Double = 0.25
    public var shoulderDropMetres: Double = 0.13
    /// How far the waist, halfway down, is drawn in from a straight drop.
    public var waistInsetMetres: Double = 0.025
    /// Half-width of the hem (before folds), and its height above the ground.
    public var hemRadiusMetres: Double = 0.29
    public var hemHeightMetres: Double = 0.012
    /// The neck of the form: a rounded stump on top, this wide (radius) and this tall.
    public var neckRadiusMetres: Double = 0.075
    public var neckHeightMetres: Double = 0.055
    /// Front-to-back depth as a fraction of the width at the shoulders and at the hem: the oval
    /// of a torso, rounder towards the hem.
    public var shoulderDepthRatio: Double = 0.62
    public var hemDepthRatio: Double = 0.86
    /// Largest depth of the folds at the hem, and typical height of a wrinkle.
    public var foldDepthMetres: Double = 0.03
    public var wrinkleDepthMetres: Double = 0.004
    public var wrinkleCount: Int = 70
    /// Mesh resolution: rings from the top centre to the hem, vertices around each ring. The
    /// mesh has `1 + rings × segments` vertices and `segments × (2 × rings − 1)` triangles.
    public var rings: Int = 120
    public var segments: Int = 256
    /// How strongly hollows are darkened (see `TriangleMesh.bakeOcclusion`); 0 for none.
    public var occlusionStrengthMetres: Float = 0.0035

    public init() {}

    /// The mesh for a seed: the same seed, the same surface.
    public func mesh(seed: UInt64) -> TriangleMesh {
        let profile = Profile(self)
        let displacement = Displacement(self, profile: profile, seed: seed)
        let totalLength = profile.length
        var positions: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = []
        positions.reserveCapacity(1 + rings * segments)
        uvs.reserveCapacity(1 + rings * segments)

        func vertex(s: Double, theta: Double) {
            let point = profile.point(at: s)
            let d = displacement.value(s: s, theta: theta, radius: point.radius)
            let r = point.radius + d * point.normal.x
            let y = max(0.004, point.height + d * point.normal.y)
            let depthRatio = hemDepthRatio + (shoulderDepthRatio - hemDepthRatio)
                * smoothstep(hemHeightMetres, heightMetres - shoulderDropMetres, point.height)
            positions.append(SIMD3(Float(r * cos(theta)), Float(y), Float(r * depthRatio * sin(theta))))
            let rho = 0.49 * s / totalLength
            uvs.append(SIMD2(Float(0.5 + rho * cos(theta)), Float(0.5 + rho * sin(theta))))
        }
        vertex(s: 0, theta: 0)
        for ring in 1 ... rings {
            let s = totalLength * Double(ring) / Double(rings)
            for segment in 0 ..< segments { vertex(s: s, theta: 2 * .pi * Double(segment) / Double(segments)) }
        }

        var triangles: [SIMD3<UInt32>] = []
        triangles.reserveCapacity(segments * (2 * rings - 1))
        func index(_ ring: Int, _ segment: Int) -> UInt32 { UInt32(1 + (ring - 1) * segments + segment % segments) }
        for j in 0 ..< segments { triangles.append(SIMD3(0, index(1, j + 1), index(1, j))) }
        for ring in 1 ..< rings {
            for j in 0 ..< segments {
                let a = index(ring, j), b = index(ring, j + 1), c = index(ring + 1, j), d = index(ring + 1, j + 1)
                triangles.append(SIMD3(a, b, c))
                triangles.append(SIMD3(b, d, c))
            }
        }
        var mesh = TriangleMesh(positions: positions, uvs: uvs, triangles: triangles)
        if occlusionStrengthMetres > 0 { mesh.bakeOcclusion(strengthMetres: occlusionStrengthMetres) }
        return mesh
    }

    /// Checks the dimensions make a surface (positive sizes, a hem below the top, a mesh of at
    /// least a few rings).
    public func validate() throws(SyntheticError) {
        guard heightMetres > 0, shoulderRadiusMetres > 0, shoulderDropMetres > 0, hemRadiusMetres > 0, shoulderDepthRatio > 0,
              hemDepthRatio > 0, neckRadiusMetres >= 0, neckHeightMetres >= 0, waistInsetMetres >= 0 else {
            throw .invalidParameter(name: "garment", reason: "dimensions must be positive")
        }
        guard hemHeightMetres >= 0, hemHeightMetres < heightMetres - shoulderDropMetres else {
            throw .invalidParameter(name: "garment", reason: "hem must lie between the ground and the shoulders")
        }
        guard rings >= 4, segments >= 8, rings * segments <= 4_000_000 else {
            throw .invalidParameter(name: "garment", reason: "needs 4 or more rings and 8 or more segments, at most 4 million vertices")
        }
    }
}

extension DrapedGarment {
    /// The undisplaced profile in the (radius, height) half-plane, sampled densely and walked by
    /// arc length from the top centre.
    struct Profile {
        struct Point {
            var radius: Double
            var height: Double
            /// Outward unit normal in the (radius, height) plane.
            var normal: SIMD2<Double>
        }

        private var samples: [SIMD2<Double>] = []
        private var arcLength: [Double] = []
        /// Arc length from the top centre to where the dome turns into the drop.
        private(set) var shoulderLength: Double = 0

        var length: Double { arcLength.last ?? 0 }

        init(_ garment: DrapedGarment) {
            let count = 4096, domeShare = 0.35
            let a = garment.shoulderRadiusMetres, b = garment.shoulderDropMetres
            let top = garment.heightMetres, shoulderHeight = top - b
            for i in 0 ... count {
                let t = Double(i) / Double(count)
                if t <= domeShare {
                    let phi = t / domeShare * .pi / 2
                    let r = a * sin(phi)
                    let neck = garment.neckHeightMetres
                        * (1 - smoothstep(0.75 * garment.neckRadiusMetres, 1.3 * garment.neckRadiusMetres, r))
                    samples.append([r, top - b * (1 - cos(phi)) + neck])
                } else {
                    let tau = (t - domeShare) / (1 - domeShare)
                    let waist = garment.waistInsetMetres * pow(sin(.pi * tau), 2)
                    samples.append([a + (garment.hemRadiusMetres - a) * pow(tau, 1.8) - waist,
                                    shoulderHeight - tau * (shoulderHeight - garment.hemHeightMetres)])
                }
            }
            var total = 0.0
            arcLength.append(0)
            for i in 1 ..< samples.count {
                total += (samples[i] - samples[i - 1]).scalarLength
                arcLength.append(total)
                if i == Int(domeShare * Double(count)) { shoulderLength = total }
            }
        }

        func point(at s: Double) -> Point {
            // Binary search for the segment holding s.
            var low = 0, high = arcLength.count - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if arcLength[middle] <= s { low = middle } else { high = middle }
            }
            let span = arcLength[high] - arcLength[low]
            let f = span > 0 ? min(max((s - arcLength[low]) / span, 0), 1) : 0
            let p = samples[low] + (samples[high] - samples[low]) * f
            let tangent = (samples[high] - samples[low]) / max(span, 1e-12)
            return Point(radius: max(0, p.x), height: p.y, normal: [-tangent.y, tangent.x])
        }
    }

    /// The seeded displacement along the profile normal: folds and wrinkles.
    struct Displacement {
        struct Harmonic { var amplitude, frequency, phase, twist: Double }
        struct Pleat { var amplitude, theta, widthMetres: Double }
        struct Wrinkle { var amplitude, s, theta, alongMetres, acrossMetres, cosAngle, sinAngle: Double }

        let harmonics: [Harmonic]
        let pleats: [Pleat]
        let wrinkles: [Wrinkle]
        let foldStart: Double
        let foldEnd: Double

        init(_ garment: DrapedGarment, profile: Profile, seed: UInt64) {
            var random = SplitMix64(seed: seed, stream: 0xF01D)
            let depth = garment.foldDepthMetres
            var harmonics: [Harmonic] = []
            for _ in 0 ..< 6 {
                let frequency = Double(random.integer(4 ... 11))
                harmonics.append(Harmonic(amplitude: depth * random.uniform(0.12, 0.3) * (6 / frequency).squareRoot(),
                                          frequency: frequency, phase: random.uniform(0, 2 * .pi), twist: random.symmetric(1.2)))
            }
            var pleats: [Pleat] = []
            for _ in 0 ..< 9 {
                pleats.append(Pleat(amplitude: depth * random.uniform(0.35, 0.8) * (random.chance(0.5) ? 1 : -1),
                                    theta: random.uniform(0, 2 * .pi), widthMetres: random.uniform(0.02, 0.05)))
            }
            var wrinkles: [Wrinkle] = []
            for _ in 0 ..< garment.wrinkleCount {
                let angle = random.uniform(0, .pi)
                wrinkles.append(Wrinkle(amplitude: garment.wrinkleDepthMetres * random.uniform(0.5, 1.5) * (random.chance(0.5) ? 1 : -1),
                                        s: random.uniform(0, profile.length), theta: random.uniform(0, 2 * .pi),
                                        alongMetres: random.uniform(0.03, 0.15), acrossMetres: random.uniform(0.008, 0.025),
                                        cosAngle: cos(angle), sinAngle: sin(angle)))
            }
            self.harmonics = harmonics
            self.pleats = pleats
            self.wrinkles = wrinkles
            foldStart = profile.shoulderLength - 0.04
            foldEnd = profile.length
        }

        /// Displacement in metres at arc length `s`, azimuth `theta`, on a profile of `radius`.
        func value(s: Double, theta: Double, radius: Double) -> Double {
            let hang = (s - foldStart) / (foldEnd - foldStart)
            let fold = hang <= 0 ? 0 : pow(min(hang, 1), 1.3)
            var d = 0.0
            if fold > 0 {
                for h in harmonics { d += fold * h.amplitude * sin(h.frequency * theta + h.phase + h.twist * hang) }
                for p in pleats {
                    let across = wrapped(theta - p.theta) * radius / p.widthMetres
                    d += fold * p.amplitude * exp(-across * across)
                }
            }
            for w in wrinkles {
                let ds = s - w.s, dt = wrapped(theta - w.theta) * max(radius, 0.02)
                let along = (ds * w.cosAngle + dt * w.sinAngle) / w.alongMetres
                let across = (-ds * w.sinAngle + dt * w.cosAngle) / w.acrossMetres
                let q = along * along + across * across
                if q < 16 { d += w.amplitude * exp(-q) }
            }
            return d
        }

        /// An angle difference brought into [−π, π].
        private func wrapped(_ angle: Double) -> Double {
            var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
            if a > .pi { a -= 2 * .pi } else if a < -.pi { a += 2 * .pi }
            return a
        }
    }
}

extension SIMD2 where Scalar == Double {
    var scalarLength: Double { (x * x + y * y).squareRoot() }
}
