/// The seeded random generator behind everything random in Atelier that must repeat: record ids
/// under `--seed`, the sample wardrobe, k-means seeding of garment colours, synthetic captures,
/// RANSAC samples and the tests' fuzzing.
///
/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014): a Weyl sequence (the state steps by the golden-ratio constant) through a bijective
/// finaliser, `mix`. Never the system generator, and never the standard library's
/// `random(in:using:)` for values that must repeat (its algorithm is not promised to stay the
/// same), so the same seed gives the same numbers on every machine, thread count and Swift version.
/// Everything is `@inlinable`: per-pixel and per-sample loops in the optimised modules inline it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @inlinable public init(seed: UInt64) { state = seed }

    /// An independent generator for one part of a whole (one stream of a synthetic scene):
    /// adding draws to one stream never shifts another, so a new wrinkle does not move the cameras.
    @inlinable public init(seed: UInt64, stream: UInt64) {
        state = Self.mix(seed ^ Self.mix(stream &+ 0x5EED_5EED_5EED_5EED))
    }

    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's finaliser (Stafford's "Mix13" variant of MurmurHash3's): a bijective hash of
    /// 64 bits, also used on its own for stateless per-pixel noise.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits of one draw.
    @inlinable public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in [lower, upper).
    @inlinable public mutating func uniform(_ lower: Double, _ upper: Double) -> Double { lower + (upper - lower) * unit() }

    /// Uniform in [-magnitude, magnitude).
    @inlinable public mutating func symmetric(_ magnitude: Double) -> Double { uniform(-magnitude, magnitude) }

    /// True with probability `probability`.
    @inlinable public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// Uniform in `0 ..< bound`, from the top 32 bits of one draw by Lemire's multiply-shift
    /// ("Fast random integer generation in an interval", 2019, without the rejection step: the
    /// bias is below bound / 2³², nothing for the sizes sampled here). `bound` must be positive
    /// and below 2³².
    @inlinable public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int((UInt64(truncatingIfNeeded: next() >> 32) &* UInt64(bound)) >> 32)
    }

    /// An integer in `range`, from one whole draw reduced modulo the range's size (the bias is
    /// below size / 2⁶⁴). Not the same numbers as `below`: synthetic scenes are drawn this way
    /// and must not change.
    @inlinable public mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
