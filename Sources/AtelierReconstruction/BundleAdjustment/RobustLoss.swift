import Foundation

/// A robust loss ρ of a squared residual, applied by iteratively reweighted least squares.
///
/// Each observation's residual and Jacobian are scaled by `√ρ′(s)` at the linearisation point, so
/// the Gauss–Newton model is `½ Σ ρ′(s) |r + J δ|²`. This is what Ceres does for every loss
/// with `ρ″ ≤ 0` (Cauchy and soft L1 are such losses everywhere): its `Corrector` skips Triggs'
/// second-order correction there because the rank-one term makes the Hessian indefinite and
/// slows convergence (Triggs et al., "Bundle Adjustment — A Modern Synthesis", 2000, §4.3).
struct RobustLoss: Sendable {
    private enum Kind { case trivial, cauchy, softL1 }
    private let kind: Kind
    /// The scale squared, `a²` (pixels²).
    private let scaleSquared: Double

    /// Nil when the scale is not a positive finite number.
    init?(_ loss: BundleAdjustmentOptions.Loss) {
        switch loss {
        case .trivial:
            kind = .trivial
            scaleSquared = 1
        case .cauchy(let a), .softL1(let a):
            guard a.isFinite, a > 0 else { return nil }
            if case .cauchy = loss { kind = .cauchy } else { kind = .softL1 }
            scaleSquared = a * a
        }
    }

    /// `ρ(s)` and `ρ′(s)` of a squared residual `s ≥ 0`.
    @inline(__always) func evaluate(_ s: Double) -> (rho: Double, derivative: Double) {
        switch kind {
        case .trivial:
            return (s, 1)
        case .cauchy:
            let u = s / scaleSquared
            return (scaleSquared * log1p(u), 1 / (1 + u))
        case .softL1:
            let root = (1 + s / scaleSquared).squareRoot()
            return (2 * scaleSquared * (root - 1), 1 / root)
        }
    }
}
