import AtelierImaging
import AtelierRecords
import Foundation

/// A busy printed fabric, the "photo" texture: detail at every scale from the whole garment down
/// to single texels, so a feature detector finds thousands of distinct, well-localised keypoints
/// in every view, and no two patches look alike (nothing repeats, so matches are unambiguous).
///
/// Layers, back to front: a smooth two-colour ground with mottling; large soft blobs; striped
/// patches at random angles; about two thousand medium ellipses and rings; brush strokes; many
/// small dots; lines of text-like glyphs; fine grain. Colours come from a seeded palette. Counts
/// scale with the area and sizes with the side, so a small test texture looks like a shrunken
/// large one.
public struct PrintedFabric: Sendable, Equatable {
    /// Side of the square texture in texels.
    public var size: Int

    public init(size: Int = 2048) { self.size = size }

    public func image(seed: UInt64) -> Image {
        var random = SplitMix64(seed: seed, stream: 0x9817)
        let scale = Float(size) / 2048, areaScale = Double(scale * scale)
        let palette = Self.palette(&random)
        var canvas = Canvas(width: size, height: size)

        let noise = ValueNoise(seed: random.next()), mottle = ValueNoise(seed: random.next())
        let groundA = palette[0], groundB = palette[1]
        canvas.fill { x, y in
            let fx = Float(x), fy = Float(y)
            let t = 0.5 + 0.5 * noise.fractal(fx, fy, scale: 420 * scale, octaves: 3)
            let shade = 0.9 + 0.2 * mottle.fractal(fx, fy, scale: 70 * scale, octaves: 3)
            return (groundA + (groundB - groundA) * smoothstep(0.3, 0.7, t)) * shade
        }

        var marks: [Mark] = []
        func count(_ n: Double) -> Int { max(1, Int((n * areaScale).rounded())) }
        func point() -> SIMD2<Float> { SIMD2(Float(random.uniform(0, Double(size))), Float(random.uniform(0, Double(size)))) }
        func colour() -> SIMD3<Float> { palette[random.integer(0 ... palette.count - 1)] }
        func logUniform(_ low: Double, _ high: Double) -> Float { Float(exp(random.uniform(log(low), log(high)))) * scale }
        func ellipse(radius: Float) -> MarkShape {
            let angle = random.uniform(0, .pi), aspect = Float(random.uniform(0.45, 1))
            return .ellipse(centre: point(), radii: SIMD2(radius, radius * aspect), cosAngle: Float(cos(angle)), sinAngle: Float(sin(angle)))
        }

        for _ in 0 ..< count(45) {
            marks.append(Mark(ellipse(radius: logUniform(80, 260)), colour: colour(), opacity: Float(random.uniform(0.3, 0.65))))
        }
        for _ in 0 ..< count(14) {
            let angle = random.uniform(0, .pi)
            let shape = MarkShape.stripes(centre: point(), halfSize: SIMD2(logUniform(60, 240), logUniform(40, 200)),
                                          cosAngle: Float(cos(angle)), sinAngle: Float(sin(angle)),
                                          period: logUniform(6, 26), duty: Float(random.uniform(0.25, 0.6)))
            marks.append(Mark(shape, colour: colour(), opacity: Float(random.uniform(0.55, 0.9))))
        }
        for _ in 0 ..< count(3000) {
            let radius = logUniform(5, 48)
            if random.chance(0.3) {
                let shape = MarkShape.ring(centre: point(), radius: radius, halfThickness: max(0.7, radius * Float(random.uniform(0.08, 0.25))))
                marks.append(Mark(shape, colour: colour(), opacity: Float(random.uniform(0.7, 1))))
            } else {
                marks.append(Mark(ellipse(radius: radius), colour: colour(), opacity: Float(random.uniform(0.7, 1))))
            }
        }
        for _ in 0 ..< count(450) {
            let from = point(), length = logUniform(15, 130), angle = random.uniform(0, 2 * .pi)
            let to = from + SIMD2(Float(cos(angle)), Float(sin(angle))) * length
            marks.append(Mark(.stroke(from: from, to: to, halfWidth: max(0.6, logUniform(0.6, 2.2))), colour: colour(), opacity: Float(random.uniform(0.7, 1))))
        }
        for _ in 0 ..< count(16000) {
            marks.append(Mark(ellipse(radius: max(0.9, logUniform(1.2, 5))), colour: colour(), opacity: Float(random.uniform(0.6, 1))))
        }
        let ink = SIMD3<Float>(0.08, 0.07, 0.1), paper = SIMD3<Float>(0.96, 0.95, 0.9)
        for _ in 0 ..< count(420) {
            let cell = max(1, Int((random.uniform(2, 3.99) * Double(scale)).rounded(.down)))
            let start = point(), letters = random.integer(3 ... 9), tone = random.chance(0.7) ? ink : paper
            for letter in 0 ..< letters {
                var bits: UInt64 = 0
                for bit in 0 ..< 35 where random.chance(0.42) { bits |= 1 << UInt64(bit) }
                marks.append(Mark(.glyph(x: Int(start.x) + letter * 6 * cell, y: Int(start.y), cell: cell, bits: bits), colour: tone, opacity: 0.92))
            }
        }
        canvas.paint(marks)

        let grainSeed = random.next()
        canvas.modulate { x, y in
            let h = SplitMix64.mix(grainSeed ^ UInt64(y * 65_536 + x))
            let grain = Float(h & 0xFFFF) / 65_536 - 0.5
            return SIMD3(repeating: 1 + 0.07 * grain)
        }
        return canvas.image()
    }

    /// Two ground colours, six print colours (neighbouring hues and one complementary accent, at
    /// mixed saturation and brightness), near-black and off-white.
    static func palette(_ random: inout SplitMix64) -> [SIMD3<Float>] {
        let startHue = random.unit()
        var colours: [SIMD3<Float>] = [
            hsv(startHue, random.uniform(0.15, 0.35), random.uniform(0.75, 0.88)),
            hsv(startHue + random.symmetric(0.1), random.uniform(0.3, 0.55), random.uniform(0.55, 0.7)),
        ]
        // Mostly neighbouring hues, with one complementary accent, as a designer's palette would.
        for offset in [0, 0.07, -0.08, 0.15, -0.16, 0.5] {
            colours.append(hsv(startHue + offset + random.symmetric(0.03), random.uniform(0.4, 0.9), random.uniform(0.3, 0.95)))
        }
        colours.append(SIMD3(0.1, 0.09, 0.11))
        colours.append(SIMD3(0.94, 0.93, 0.88))
        return colours
    }

    /// An sRGB colour from hue (turns), saturation and value.
    static func hsv(_ hue: Double, _ saturation: Double, _ value: Double) -> SIMD3<Float> {
        let h = (hue - hue.rounded(.down)) * 6, sector = Int(h) % 6, f = h - h.rounded(.down)
        let p = value * (1 - saturation), q = value * (1 - saturation * f), t = value * (1 - saturation * (1 - f))
        let rgb: (Double, Double, Double)
        switch sector {
        case 0: rgb = (value, t, p)
        case 1: rgb = (q, value, p)
        case 2: rgb = (p, value, t)
        case 3: rgb = (p, q, value)
        case 4: rgb = (t, p, value)
        default: rgb = (value, p, q)
        }
        return SIMD3(Float(rgb.0), Float(rgb.1), Float(rgb.2))
    }
}
