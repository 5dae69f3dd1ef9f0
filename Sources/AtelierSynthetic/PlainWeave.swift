import AtelierImaging
import AtelierRecords
import Foundation

/// A plain fabric with little texture: a 2/2 twill of slightly irregular threads in one colour,
/// like a linen or cotton drill: thicker slub stretches along some threads, small neps (knots of
/// fibre), faint heathering and soft mottling. Contrast stays within a few percent, so from a
/// metre away it reads as a plain cloth and a feature detector finds only a few hundred weak
/// points per view on it: the hard case for structure from motion, but not an impossible one.
public struct PlainWeave: Sendable, Equatable {
    /// Side of the square texture in texels.
    public var size: Int
    /// Texels per thread.
    public var threadTexels: Int

    public init(size: Int = 2048, threadTexels: Int = 4) {
        self.size = size
        self.threadTexels = threadTexels
    }

    public func image(seed: UInt64) -> Image {
        var random = SplitMix64(seed: seed, stream: 0x3EA7E)
        let fabrics: [SIMD3<Float>] = [[0.78, 0.72, 0.62], [0.23, 0.3, 0.45], [0.42, 0.45, 0.33], [0.55, 0.55, 0.57], [0.62, 0.33, 0.3]]
        let base = fabrics[random.integer(0 ... fabrics.count - 1)]
        let weftTint = SIMD3<Float>(Float(random.uniform(0.96, 1.02)), Float(random.uniform(0.96, 1.02)), Float(random.uniform(0.96, 1.02)))
        let slubs = ValueNoise(seed: random.next()), mottle = ValueNoise(seed: random.next()), heather = ValueNoise(seed: random.next())
        let threadSeed = random.next()
        let period = max(2, threadTexels), scale = Float(size) / 2048
        var canvas = Canvas(width: size, height: size)
        canvas.fill { x, y in
            let warp = x / period, weft = y / period
            let warpOnTop = (warp + weft) % 4 < 2
            let thread = warpOnTop ? warp : weft
            let across = Float(warpOnTop ? x % period : y % period) + 0.5
            let along = Float(warpOnTop ? y : x)
            // Each thread a touch lighter or darker, thicker or thinner along its length.
            let tone = 1 + 0.018 * (Float(SplitMix64.mix(threadSeed ^ UInt64(thread) ^ (warpOnTop ? 0 : 1 << 40)) >> 40) / 16_777_216 - 0.5) * 2
            let slub = 1 + 0.02 * slubs.value(along / (40 * scale) + Float(thread) * 7.3, Float(thread) * 3.1 + (warpOnTop ? 0 : 500))
            let round = 0.955 + 0.045 * sin(Float.pi * across / Float(period))
            let colour = warpOnTop ? base : base * weftTint
            let fx = Float(x), fy = Float(y)
            let patch = 1 + 0.035 * mottle.fractal(fx, fy, scale: 300 * scale, octaves: 3) + 0.03 * heather.fractal(fx, fy, scale: 40 * scale, octaves: 2)
            return colour * (tone * slub * round * patch)
        }

        // Slub stretches (thick yarn, along the warp or the weft) and neps, a shade off the cloth.
        var marks: [Mark] = []
        func point() -> SIMD2<Float> { SIMD2(Float(random.uniform(0, Double(size))), Float(random.uniform(0, Double(size)))) }
        func shade(_ spread: Double) -> SIMD3<Float> { base * Float(1 + random.symmetric(spread)) }
        let area = Double(scale * scale)
        for _ in 0 ..< Int(1800 * area) {
            let from = point(), length = Float(random.uniform(12, 70)) * scale
            let along: SIMD2<Float> = random.chance(0.5) ? [0, 1] : [1, 0]
            let shape = MarkShape.stroke(from: from, to: from + along * length, halfWidth: Float(period) * Float(random.uniform(0.5, 0.9)))
            marks.append(Mark(shape, colour: shade(0.22), opacity: Float(random.uniform(0.35, 0.7))))
        }
        for _ in 0 ..< Int(2500 * area) {
            let r = Float(random.uniform(1.2, 3.5)) * scale
            marks.append(Mark(.ellipse(centre: point(), radii: SIMD2(r, r * 0.7), cosAngle: 1, sinAngle: 0), colour: shade(0.3), opacity: 0.6))
        }
        canvas.paint(marks)
        return canvas.image()
    }
}
