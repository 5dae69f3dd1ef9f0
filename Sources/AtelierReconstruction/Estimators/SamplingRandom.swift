import AtelierRecords

/// The seeded generator behind every random choice in reconstruction (RANSAC samples, PatchMatch
/// proposals): the package's one generator, `SplitMix64`. Never the system generator, so a
/// reconstruction is the same on every run, machine and thread count. (The name stays while
/// code in Dense/ uses it.)
public typealias SamplingRandom = SplitMix64

extension SplitMix64 {
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
