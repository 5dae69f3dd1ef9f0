import Foundation

/// One half of a sampled, normalised Gaussian: `taps[0]` is the weight of the centre sample and
/// `taps[j]` that of the samples ±j away.
///
/// Truncated at ⌈4σ⌉ samples, as VLFeat truncates its smoothing kernels: the mass cut off is
/// under 10⁻⁴, far below the DoG peak threshold. The taps sum (both halves) to exactly 1 in
/// double precision before rounding to `Float`, so a flat image stays flat.
struct GaussianKernel: Sendable, Equatable {
    let sigma: Float
    let taps: [Float]

    init(sigma: Float) {
        precondition(sigma > 0, "a Gaussian kernel needs a positive σ")
        self.sigma = sigma
        let radius = max(1, Int((4 * Double(sigma)).rounded(.up)))
        let twoVariance = 2 * Double(sigma) * Double(sigma)
        let weights = (0 ... radius).map { j in exp(-Double(j * j) / twoVariance) }
        let total = weights[0] + 2 * weights.dropFirst().reduce(0, +)
        taps = weights.map { Float($0 / total) }
    }

    /// Samples on each side of the centre.
    var radius: Int { taps.count - 1 }
}
