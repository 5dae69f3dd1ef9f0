/// What bundle adjustment refines, with which loss, and when it stops. The defaults follow
/// COLMAP's `BundleAdjustmentOptions` and Ceres' solver defaults.
public struct BundleAdjustmentOptions: Sendable {
    /// The robust loss ρ applied to each observation's squared reprojection error `s` (pixels²);
    /// the cost is `½ Σ ρ(s)`, Ceres' convention. With scale `a`: Cauchy `ρ(s) = a² log(1 + s/a²)`,
    /// soft L1 `ρ(s) = 2a² (√(1 + s/a²) − 1)`, trivial `ρ(s) = s`. Residuals much larger than `a`
    /// pixels are down-weighted (Cauchy: their weight falls as `a²/s`).
    public enum Loss: Sendable, Equatable {
        case trivial
        case cauchy(scalePixels: Double)
        case softL1(scalePixels: Double)
    }

    public var loss: Loss = .cauchy(scalePixels: 1)
    /// Levenberg–Marquardt iterations, successful or not (Ceres counts both).
    public var maxIterations: Int = 100
    /// Stop when a successful step lowers the cost by less than this fraction of it.
    public var functionTolerance: Double = 1e-6
    /// Stop when the largest gradient component falls below this.
    public var gradientTolerance: Double = 1e-10
    /// Stop when the step is shorter than this fraction of the parameter vector's norm.
    public var parameterTolerance: Double = 1e-8
    public var refineFocalLength = true
    public var refinePrincipalPoint = false
    /// Refine k1 and k2.
    public var refineDistortion = true
    /// With `refineDistortion`, refine k2 as well as k1. k2 is poorly constrained unless points
    /// reach well into the corners of the frame; held, it stays at its current value.
    public var refineSecondDistortionCoefficient = true
    /// Images whose pose is held fixed: they get no columns in the reduced system and their poses
    /// are returned bit-identical.
    public var constantPoses: Set<Int> = []
    /// Cameras whose intrinsics are held fixed.
    public var constantCameras: Set<Int> = []
    /// Holds one translation component of one image fixed (COLMAP fixes the first image's pose
    /// and one component of the second's translation to remove the scale gauge).
    public var constantTranslationComponent: (image: Int, axis: Int)? = nil
    public var constantPoints: Set<Int> = []
    /// Threads for the per-observation and per-point passes. The result does not depend on it:
    /// every sum is taken in a fixed order whatever the thread count.
    public var threads: Int = 2

    public init() {}
}

/// How a bundle adjustment went: iterations, cost and reprojection error before and after, and
/// why it stopped.
public struct BundleAdjustmentReport: Sendable {
    /// Why the optimisation stopped.
    public enum Termination: Sendable, Equatable {
        /// A function, gradient or parameter tolerance was met (or the damping grew so large
        /// that no step can lower the cost any more, Ceres' "minimum trust region radius").
        case converged
        /// `maxIterations` ran out first; the problem holds the best parameters found.
        case maxIterations
        /// The text says why: a malformed problem or loss (the problem is then left unchanged),
        /// or a reduced system that stayed indefinite however much it was damped (the problem
        /// then holds the best parameters reached before).
        case failed(String)
    }

    public var iterations: Int
    /// `½ Σ ρ(s)` over the observations that carry weight, before and after.
    public var initialCost: Double, finalCost: Double
    /// The plain reprojection RMS error, `√(Σ s / n)`, over the same observations.
    public var initialRMSErrorPixels: Double, finalRMSErrorPixels: Double
    public var termination: Termination

    public init(iterations: Int, initialCost: Double, finalCost: Double, initialRMSErrorPixels: Double, finalRMSErrorPixels: Double, termination: Termination) {
        self.iterations = iterations
        self.initialCost = initialCost
        self.finalCost = finalCost
        self.initialRMSErrorPixels = initialRMSErrorPixels
        self.finalRMSErrorPixels = finalRMSErrorPixels
        self.termination = termination
    }
}
