import AtelierGeometry
import Foundation

/// How `PoseRefiner` weighs residuals and when it stops.
public struct PoseRefinerOptions: Sendable {
    /// Also refine the focal length (7 parameters instead of 6).
    public var refineFocalLength = false
    /// The Cauchy loss's scale: residuals much larger than this count logarithmically.
    /// COLMAP's `RefineAbsolutePose` uses 1 px.
    public var lossScalePixels: Double = 1
    public var maxIterations = 100
    public init() {}
}

/// A pose (and focal length) after non-linear refinement.
public struct PoseRefinement: Sendable {
    public var camFromWorld: CameraPose
    /// The refined focal length, or the input's when it was held fixed.
    public var focalLengthPixels: Double
    /// The robust cost `Σ c²·log(1 + |r|²/c²)` at the result, over the points used.
    public var cost: Double
}

/// Non-linear refinement of a camera pose on its inlier correspondences: Levenberg–Marquardt
/// (Marquardt 1963, with Nielsen's damping update) on the reprojection error in pixels under a
/// Cauchy loss, as COLMAP's `RefineAbsolutePose` does after RANSAC (Schönberger & Frahm, CVPR 2016).
///
/// The observations are the undistorted offsets from the principal point in pixels,
/// `focalLengthPixels × normalised[i]`: they are what was measured, so they stay fixed when the
/// focal length is refined, and the residual is `f'·π(R·X + t) − f·normalised` with `π(p) = (x/z, y/z)`.
/// The rotation is updated on the left by a rotation vector, `R ← exp([ω]×)·R`, so the
/// parametrisation has no singularity; the robust loss is applied by iteratively reweighted least
/// squares (weights `1/(1 + |r|²/c²)`). Points behind the camera at the start are left out; a step
/// that would move a used point behind the camera is rejected.
public enum PoseRefiner {
    /// The refined pose, over the correspondences in `indices`; the input is returned unchanged
    /// (with its cost) when fewer than three points are usable or no step lowers the cost.
    public static func refine(camFromWorld start: CameraPose, focalLengthPixels: Double, normalised: [SIMD2<Double>],
                              pointsInWorld: [SIMD3<Double>], indices: [Int], options: PoseRefinerOptions = PoseRefinerOptions()) -> PoseRefinement {
        let observedFocal = focalLengthPixels
        let used = indices.filter { start.pointInCam(pointsInWorld[$0]).z > 0 }
        let offsets = used.map { observedFocal * normalised[$0] }, world = used.map { pointsInWorld[$0] }
        let c2 = options.lossScalePixels * options.lossScalePixels
        let parameterCount = options.refineFocalLength ? 7 : 6

        func cost(_ rotation: Matrix3, _ translation: SIMD3<Double>, _ focal: Double) -> Double {
            var total = 0.0
            for i in 0 ..< world.count {
                let p = rotation * world[i] + translation
                guard p.z > 0 else { return .infinity }
                let rx = focal * p.x / p.z - offsets[i].x, ry = focal * p.y / p.z - offsets[i].y
                total += c2 * log1p((rx * rx + ry * ry) / c2)
            }
            return total
        }

        var rotation = start.camFromWorld, translation = start.translation, focal = focalLengthPixels
        var current = cost(rotation, translation, focal)
        guard world.count >= 3, current.isFinite else {
            return PoseRefinement(camFromWorld: start, focalLengthPixels: focalLengthPixels, cost: current)
        }
        var damping = 1e-3, dampingGrowth = 2.0
        var normal = [Double](repeating: 0, count: parameterCount * parameterCount)
        var gradient = [Double](repeating: 0, count: parameterCount)
        var rowU = [Double](repeating: 0, count: parameterCount), rowV = rowU

        for _ in 0 ..< options.maxIterations {
            // The reweighted normal equations JᵀWJ·δ = −JᵀWr.
            for k in 0 ..< normal.count { normal[k] = 0 }
            for k in 0 ..< parameterCount { gradient[k] = 0 }
            for i in 0 ..< world.count {
                let rotated = rotation * world[i], p = rotated + translation
                let inverseZ = 1 / p.z, u = p.x * inverseZ, v = p.y * inverseZ
                let r = SIMD2(focal * u - offsets[i].x, focal * v - offsets[i].y)
                let weight = 1 / (1 + (r.x * r.x + r.y * r.y) / c2)
                // ∂(f·π)/∂p = f/z·[[1, 0, −u], [0, 1, −v]]; ∂p/∂ω = −[Rx]×, ∂p/∂t = I.
                let fz = focal * inverseZ
                let du = SIMD3(fz, 0, -fz * u), dv = SIMD3(0, fz, -fz * v)
                let dOmegaU = rotated.cross(du), dOmegaV = rotated.cross(dv)   // (−[Rx]×)ᵀ·g = Rx × g
                rowU[0] = dOmegaU.x; rowU[1] = dOmegaU.y; rowU[2] = dOmegaU.z; rowU[3] = du.x; rowU[4] = du.y; rowU[5] = du.z
                rowV[0] = dOmegaV.x; rowV[1] = dOmegaV.y; rowV[2] = dOmegaV.z; rowV[3] = dv.x; rowV[4] = dv.y; rowV[5] = dv.z
                if options.refineFocalLength { rowU[6] = u; rowV[6] = v }
                for a in 0 ..< parameterCount {
                    gradient[a] -= weight * (rowU[a] * r.x + rowV[a] * r.y)
                    for b in a ..< parameterCount { normal[a * parameterCount + b] += weight * (rowU[a] * rowU[b] + rowV[a] * rowV[b]) }
                }
            }
            for a in 0 ..< parameterCount { for b in 0 ..< a { normal[a * parameterCount + b] = normal[b * parameterCount + a] } }

            var improved = false
            while !improved && damping < 1e12 {
                var damped = normal
                for a in 0 ..< parameterCount { damped[a * parameterCount + a] += damping * max(normal[a * parameterCount + a], 1e-12) }
                guard let step = PoseLinearSystem.solve(damped, gradient, size: parameterCount) else {
                    damping *= dampingGrowth; dampingGrowth *= 2
                    continue
                }
                let nextRotation = Quaternion(Matrix3.rotation(vector: SIMD3(step[0], step[1], step[2])) * rotation).rotationMatrix
                let nextTranslation = translation + SIMD3(step[3], step[4], step[5])
                let nextFocal = options.refineFocalLength ? focal + step[6] : focal
                let next = nextFocal > 0 ? cost(nextRotation, nextTranslation, nextFocal) : .infinity
                if next < current {
                    let relativeDecrease = (current - next) / max(current, 1e-300)
                    rotation = nextRotation; translation = nextTranslation; focal = nextFocal; current = next
                    damping = max(1e-9, damping / 3); dampingGrowth = 2
                    improved = true
                    if relativeDecrease < 1e-10 { return result(rotation, translation, focal, current) }
                } else {
                    damping *= dampingGrowth; dampingGrowth *= 2
                }
            }
            if !improved { break }
        }
        return result(rotation, translation, focal, current)
    }

    private static func result(_ rotation: Matrix3, _ translation: SIMD3<Double>, _ focal: Double, _ cost: Double) -> PoseRefinement {
        PoseRefinement(camFromWorld: CameraPose(quaternion: Quaternion(rotation), translation: translation), focalLengthPixels: focal, cost: cost)
    }
}
