import AtelierGeometry

/// Bundle adjustment: refines cameras, poses and points to minimise the robustified
/// reprojection error, as COLMAP does with Ceres (Levenberg–Marquardt, Schur complement, dense
/// Cholesky of the reduced camera system).
///
/// The Levenberg–Marquardt schedule is Ceres' (Madsen, Nielsen & Tingleff, "Methods for
/// Non-Linear Least Squares Problems", 2004, §3.2): damping `λ` starts at 1e-4; a step is taken
/// when the cost falls by more than 1e-3 of what the linear model predicts (gain ratio `ρ`),
/// and then `λ ← λ · max(1/3, 1 − (2ρ − 1)³)`; otherwise `λ ← λ · ν`, `ν ← 2ν`. Jacobians are
/// recomputed only after a step is taken. See `RobustLoss` for how the loss is applied and
/// `ReducedCameraSystem` for the linear algebra.
public enum BundleAdjuster {
    static let initialLambda = 1e-4, maximumLambda = 1e32, minimumLambda = 1e-16
    static let minimumGainRatio = 1e-3
    /// Consecutive steps whose reduced system was not positive definite before giving up.
    static let maximumConsecutiveFailures = 10

    /// Adjusts `problem` in place.
    ///
    /// Points observed by no image are left alone. Observations whose point is behind (or on
    /// the plane of) its camera at the start carry no weight for the whole adjustment, as do
    /// their costs in the report; a step that would move a point behind a camera observing it
    /// is rejected. Points observed only by held images with held cameras still move unless
    /// listed in `constantPoints`. The problem is left unchanged when it is malformed
    /// (`.failed`), and holds the best parameters found otherwise.
    public static func adjust(_ problem: inout BundleAdjustmentProblem, options: BundleAdjustmentOptions) -> BundleAdjustmentReport {
        func failed(_ reason: String) -> BundleAdjustmentReport {
            BundleAdjustmentReport(iterations: 0, initialCost: 0, finalCost: 0, initialRMSErrorPixels: 0, finalRMSErrorPixels: 0, termination: .failed(reason))
        }
        guard let loss = RobustLoss(options.loss) else { return failed("the loss scale must be a positive number of pixels") }
        let layout: BundleAdjustmentLayout
        switch BundleAdjustmentLayout.make(problem, options: options) {
        case .success(let made): layout = made
        case .failure(.inconsistentBundleAdjustmentProblem(let reason)): return failed(reason)
        case .failure(let error): return failed(error.description)
        }
        let workspace = BundleAdjustmentWorkspace(layout: layout, problem: problem, loss: loss, threads: options.threads)
        var parameters = BundleAdjustmentParameters(cameras: problem.cameras, poses: problem.poses, points: problem.points)
        guard let initial = workspace.evaluate(parameters, imageCamera: problem.imageCamera) else {
            return failed("the initial cost is not finite")
        }
        var report = BundleAdjustmentReport(iterations: 0, initialCost: initial.cost, finalCost: initial.cost,
                                            initialRMSErrorPixels: initial.rmsErrorPixels, finalRMSErrorPixels: initial.rmsErrorPixels,
                                            termination: .converged)
        guard layout.columnCount + layout.variablePoints.count > 0, layout.activeObservationCount > 0 else { return report }

        var cost = initial.cost
        var lambda = initialLambda, lambdaGrowth = 2.0, failures = 0
        var largestGradient = workspace.linearise(parameters, imageCamera: problem.imageCamera)
        report.termination = .maxIterations
        while report.iterations < options.maxIterations {
            if largestGradient <= options.gradientTolerance {
                report.termination = .converged
                break
            }
            report.iterations += 1
            guard let step = workspace.solve(lambda: lambda) else {
                failures += 1
                if failures > maximumConsecutiveFailures {
                    report.termination = .failed("the reduced camera system stayed indefinite after \(failures) increases of the damping")
                    break
                }
                lambda *= lambdaGrowth
                lambdaGrowth *= 2
                continue
            }
            failures = 0
            if step.stepNorm <= options.parameterTolerance * (parameters.norm(layout: layout) + options.parameterTolerance) {
                report.termination = .converged
                break
            }
            let candidate = parameters.applying(cameraStep: workspace.cameraStep, pointStep: workspace.pointStep, layout: layout)
            let evaluated = workspace.evaluate(candidate, imageCamera: problem.imageCamera)
            let decrease = evaluated.map { cost - $0.cost } ?? -.infinity
            let gainRatio = step.modelDecrease > 0 ? decrease / step.modelDecrease : -.infinity
            if let evaluated, gainRatio > minimumGainRatio {
                parameters = candidate
                cost = evaluated.cost
                report.finalCost = evaluated.cost
                report.finalRMSErrorPixels = evaluated.rmsErrorPixels
                if decrease <= options.functionTolerance * (cost + decrease) {
                    report.termination = .converged
                    break
                }
                let shrink = 2 * gainRatio - 1
                lambda = max(minimumLambda, lambda * max(1.0 / 3, 1 - shrink * shrink * shrink))
                lambdaGrowth = 2
                largestGradient = workspace.linearise(parameters, imageCamera: problem.imageCamera)
            } else {
                lambda *= lambdaGrowth
                lambdaGrowth *= 2
                if lambda > maximumLambda {
                    report.termination = .converged
                    break
                }
            }
        }
        problem.cameras = parameters.cameras
        problem.poses = parameters.poses
        problem.points = parameters.points
        return report
    }
}
