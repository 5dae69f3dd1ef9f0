/// The seeded generator behind every random choice in reconstruction (RANSAC samples): SplitMix64
/// (Steele, Lea & Flood, OOPSLA 2014). Never the system generator, so a reconstruction is the
/// same on every run, machine and thread count.
public struct SamplingRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0 ..< bound` (Lemire's multiply-shift; the bias is below 2⁻³² for the sizes
    /// used here and does not matter for sampling).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int((UInt64(truncatingIfNeeded: next() >> 32) &* UInt64(bound)) >> 32)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// `count` distinct indices from `0 ..< population`, written into `sample` (resized): partial
    /// Fisher–Yates over `scratch`, which must hold `0 ..< population` in some order and is left
    /// permuted (so it can be reused without resetting).
    public mutating func sample(_ count: Int, from scratch: inout [Int], into sample: inout [Int]) {
        precondition(count <= scratch.count)
        sample.removeAll(keepingCapacity: true)
        for i in 0 ..< count {
            let j = i + below(scratch.count - i)
            scratch.swapAt(i, j)
            sample.append(scratch[i])
        }
    }
}
