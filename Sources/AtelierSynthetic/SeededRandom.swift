/// A seedable pseudo-random generator: SplitMix64 (Steele, Lea & Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014).
///
/// Everything random in a synthetic capture (the folds, the print, the camera jitter, the sensor
/// noise) comes from one of these or from `SeededRandom.mix`, never from the system generator,
/// so the same seed gives the same bytes on every machine, thread count and Swift version (the
/// standard library's `random(in:using:)` is not promised to stay the same, so it is not used).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// An independent generator for one part of a scene: adding draws to one stream never shifts
    /// another, so a new wrinkle does not move the cameras.
    public init(seed: UInt64, stream: UInt64) {
        state = Self.mix(seed ^ Self.mix(stream &+ 0x5EED_5EED_5EED_5EED))
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's finaliser: a bijective hash of 64 bits, used for stateless per-pixel noise.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in [lower, upper).
    public mutating func uniform(_ lower: Double, _ upper: Double) -> Double { lower + (upper - lower) * unit() }

    /// Uniform in [-magnitude, magnitude).
    public mutating func symmetric(_ magnitude: Double) -> Double { uniform(-magnitude, magnitude) }

    /// An integer in the range (the modulo bias is below 2⁻⁵⁰ for the small ranges used here).
    public mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
}
