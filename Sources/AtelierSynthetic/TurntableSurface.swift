import AtelierImaging
import AtelierRecords
import Foundation

/// The top of the turntable the garment stands on: a mid-grey disc with mild texture (soft
/// mottling, speckles and faint scuffs, like a rubber mat), a darker rim, and the garment's
/// contact shadow baked in,
/// a darkening that falls off outside the hem (and leans away from the key light).
///
/// The texture covers the square `[−radius, radius]²` of the ground plane: texel (u, v) is the
/// point `x = (2u − 1) × radius`, `z = (2v − 1) × radius`.
public struct TurntableSurface: Sendable, Equatable {
    public var size: Int
    public var radiusMetres: Double

    public init(size: Int = 1024, radiusMetres: Double = 0.42) {
        self.size = size
        self.radiusMetres = radiusMetres
    }

    /// The texture for a garment whose hem is `hemRadius(θ)` metres from the axis at azimuth θ
    /// (θ = atan2(z, x)), lit by a key light from `keyDirection` (pointing towards the light).
    public func image(seed: UInt64, hemOutline: HemOutline, keyDirection: SIMD3<Float>) -> Image {
        var random = SplitMix64(seed: seed, stream: 0x7AB1E)
        let metresPerTexel = Float(2 * radiusMetres) / Float(size), radius = Float(radiusMetres)
        let mottle = ValueNoise(seed: random.next()), fine = ValueNoise(seed: random.next())
        let base = SIMD3<Float>(0.5, 0.49, 0.47)
        var canvas = Canvas(width: size, height: size)
        canvas.fill { x, y in
            let wx = (Float(x) + 0.5) * metresPerTexel, wy = (Float(y) + 0.5) * metresPerTexel
            let shade = 1 + 0.05 * mottle.fractal(wx, wy, scale: 0.06, octaves: 4) + 0.025 * fine.fractal(wx, wy, scale: 0.008, octaves: 2)
            return base * shade
        }
        var marks: [Mark] = []
        func point() -> SIMD2<Float> { SIMD2(Float(random.uniform(0, Double(size))), Float(random.uniform(0, Double(size)))) }
        let texelsPerMetre = 1 / metresPerTexel
        let area = Double(size * size) / (1024 * 1024)
        for _ in 0 ..< Int(2500 * area) {
            let tone: SIMD3<Float> = random.chance(0.5) ? [0.3, 0.3, 0.29] : [0.66, 0.65, 0.63]
            let r = Float(random.uniform(0.0008, 0.004)) * texelsPerMetre
            marks.append(Mark(.ellipse(centre: point(), radii: SIMD2(r, r), cosAngle: 1, sinAngle: 0), colour: tone, opacity: Float(random.uniform(0.2, 0.5))))
        }
        for _ in 0 ..< Int(150 * area) {
            let from = point(), angle = random.uniform(0, 2 * .pi), length = Float(random.uniform(0.01, 0.06)) * texelsPerMetre
            let to = from + SIMD2(Float(cos(angle)), Float(sin(angle))) * length
            marks.append(Mark(.stroke(from: from, to: to, halfWidth: 0.0006 * texelsPerMetre), colour: [0.62, 0.61, 0.6], opacity: 0.25))
        }
        canvas.paint(marks)

        // Rim and contact shadow. The shadow is offset a little away from the key light.
        let lean = -SIMD2(keyDirection.x, keyDirection.z) * 0.02
        let outline = hemOutline
        canvas.modulate { x, y in
            let wx = (Float(x) + 0.5) * metresPerTexel - radius, wz = (Float(y) + 0.5) * metresPerTexel - radius
            let rho = (wx * wx + wz * wz).squareRoot()
            var factor: Float = rho > radius - 0.008 ? 0.72 : 1
            let sx = wx - lean.x, sz = wz - lean.y
            let outside = (sx * sx + sz * sz).squareRoot() - outline.radius(atAngle: atan2(sz, sx))
            factor *= 1 - 0.5 * exp(-max(outside, 0) / 0.035)
            return SIMD3(repeating: factor)
        }
        return canvas.image()
    }
}

/// How far the hem reaches from the vertical axis at each azimuth: the outline the contact shadow
/// follows. Built from the mesh vertices near the ground.
public struct HemOutline: Sendable, Equatable {
    /// Radius at azimuths 0, 2π/n, …
    public var radii: [Float]

    public init(radii: [Float]) { self.radii = radii }

    /// The outline of the vertices lower than `bandMetres` above the lowest vertex of the mesh.
    public init(mesh: TriangleMesh, bins: Int = 720, bandMetres: Float = 0.03) {
        let lowest = mesh.positions.map(\.y).min() ?? 0
        var radii = [Float](repeating: 0, count: bins)
        for p in mesh.positions where p.y < lowest + bandMetres {
            let angle = atan2(p.z, p.x), bin = (Int((angle / (2 * .pi) + 1) * Float(bins)) % bins + bins) % bins
            radii[bin] = max(radii[bin], (p.x * p.x + p.z * p.z).squareRoot())
        }
        // Fill empty bins from their neighbours, then smooth a little.
        for _ in 0 ..< bins where radii.contains(0) {
            radii = radii.indices.map { radii[$0] > 0 ? radii[$0] : max(radii[($0 + bins - 1) % bins], radii[($0 + 1) % bins]) }
        }
        radii = radii.indices.map { i in (-2 ... 2).map { radii[(i + $0 + bins) % bins] }.reduce(0, +) / 5 }
        self.radii = radii
    }

    /// The hem radius at an azimuth (radians, atan2(z, x)), interpolated.
    public func radius(atAngle angle: Float) -> Float {
        guard !radii.isEmpty else { return 0 }
        let position = (angle / (2 * .pi) + 1) * Float(radii.count)
        let i = Int(position.rounded(.down)), f = position - position.rounded(.down)
        let a = radii[(i % radii.count + radii.count) % radii.count], b = radii[((i + 1) % radii.count + radii.count) % radii.count]
        return a + (b - a) * f
    }
}
