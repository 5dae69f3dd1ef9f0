import AtelierRecords

/// Smooth seeded 2D noise: random values on an integer lattice, blended with a quintic fade
/// (Perlin's 2002 fade curve, so the result has continuous first and second derivatives), and
/// fractal sums of it. Stateless and pure, so any pixel can be evaluated on any thread.
struct ValueNoise: Sendable {
    let seed: UInt64

    init(seed: UInt64) { self.seed = SplitMix64.mix(seed &+ 0x4E01_5E) }

    /// The lattice value at (i, j), uniform in [−1, 1].
    @inline(__always)
    func lattice(_ i: Int, _ j: Int) -> Float {
        let h = SplitMix64.mix(seed ^ (UInt64(bitPattern: Int64(i)) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(bitPattern: Int64(j)) &* 0xC2B2_AE3D_27D4_EB4F))
        return Float(h >> 40) * (2 / 16_777_216) - 1
    }

    /// Noise at (x, y) in lattice units, in [−1, 1].
    @inline(__always)
    func value(_ x: Float, _ y: Float) -> Float {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let i = Int(fx), j = Int(fy)
        let tx = x - fx, ty = y - fy
        let u = tx * tx * tx * (tx * (tx * 6 - 15) + 10)
        let v = ty * ty * ty * (ty * (ty * 6 - 15) + 10)
        let a = lattice(i, j), b = lattice(i + 1, j), c = lattice(i, j + 1), d = lattice(i + 1, j + 1)
        return (a + (b - a) * u) + ((c + (d - c) * u) - (a + (b - a) * u)) * v
    }

    /// A fractal sum of `octaves` octaves, each twice the frequency and half the amplitude of the
    /// one before, normalised to about [−1, 1]; `scale` is the size of the first octave's lattice
    /// cell in the caller's units.
    @inline(__always)
    func fractal(_ x: Float, _ y: Float, scale: Float, octaves: Int) -> Float {
        var sum: Float = 0, amplitude: Float = 1, total: Float = 0, frequency = 1 / scale
        for octave in 0 ..< octaves {
            // A fixed offset per octave keeps lattice points of successive octaves from lining up.
            let offset = Float(octave) * 17.31
            sum += amplitude * value(x * frequency + offset, y * frequency - offset)
            total += amplitude
            amplitude *= 0.5
            frequency *= 2
        }
        return sum / total
    }
}
