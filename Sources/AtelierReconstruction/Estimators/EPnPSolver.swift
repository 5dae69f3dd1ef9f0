import AtelierGeometry
import Foundation

/// The non-minimal absolute-pose solver: EPnP (Lepetit, Moreno-Noguer & Fua, "EPnP: An Accurate
/// O(n) Solution to the PnP Problem", IJCV 81, 2009), for five or more points: RANSAC's
/// local optimisation and non-minimal fits on inliers.
///
/// Each world point is written as an affine combination `Σⱼ αᵢⱼ cⱼ` of four control points (the
/// centroid and the principal axes of the points), and the same weights hold in the camera frame.
/// The projections then give two linear equations per point in the twelve camera-frame
/// control-point coordinates, `M·x = 0`; `x` lies near the span of the four eigenvectors of `MᵀM`
/// with the smallest eigenvalues, `x = Σₖ βₖvₖ`. The betas come from the six control-point distances
/// (which a rigid motion keeps): three linearisations give starting values, Gauss–Newton on the
/// six distance equations refines each, and the candidate with the smallest reprojection error
/// wins. The pose is then the rigid alignment of the world points with their camera-frame copies.
public enum EPnPSolver {
    /// The pose (camFromWorld) that best projects `pointsInWorld[i]` onto the normalised image
    /// point `normalised[i]` (undistorted `(x/z, y/z)`), over `indices` (all points when nil).
    ///
    /// Nil with fewer than five points (with four, all four betas matter and neither the paper's
    /// linearisations nor Gauss–Newton from them reliably find the solution; use P3P), when the world points are (nearly) coplanar or collinear
    /// (the paper's planar variant with three control points is not implemented: RANSAC falls back
    /// to the non-linear refinement there), or when no candidate puts the points in front.
    public static func camFromWorld(normalised: [SIMD2<Double>], pointsInWorld: [SIMD3<Double>], indices: [Int]? = nil) -> CameraPose? {
        guard normalised.count == pointsInWorld.count else { return nil }
        let used = indices ?? Array(0 ..< pointsInWorld.count)
        guard used.count >= 5 else { return nil }
        let world = used.map { pointsInWorld[$0] }, image = used.map { normalised[$0] }
        guard world.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }),
              image.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }

        guard let frame = ControlFrame(world) else { return nil }
        let alphas = world.map(frame.barycentric)
        guard let nullSpace = smallestEigenvectors(alphas: alphas, image: image) else { return nil }
        let distances = DistanceEquations(nullSpace: nullSpace, controlPoints: frame.controlPoints)

        var best: (pose: CameraPose, error: Double)?
        for start in distances.initialBetas() {
            let betas = distances.gaussNewton(start)
            guard let pose = pose(betas: betas, nullSpace: nullSpace, alphas: alphas, world: world) else { continue }
            let error = reprojectionError(pose, world: world, image: image)
            if error < (best?.error ?? .infinity) { best = (pose, error) }
        }
        return best?.pose
    }

    /// The four control points: the centroid, and one step of the points' standard deviation
    /// along each principal axis, so that the barycentric coordinates are well conditioned.
    struct ControlFrame {
        var centroid: SIMD3<Double>
        var axes: [SIMD3<Double>]      // principal directions, unit
        var spreads: [Double]          // standard deviations along them
        var controlPoints: [SIMD3<Double>] { [centroid] + (0 ..< 3).map { centroid + spreads[$0] * axes[$0] } }

        init?(_ world: [SIMD3<Double>]) {
            let n = Double(world.count)
            centroid = world.reduce(.zero, +) / n
            var covariance = Matrix3.zero
            for point in world { covariance = covariance + Matrix3.outer(point - centroid, point - centroid) }
            guard let eigen = PoseSymmetricEigen.of((1 / n) * covariance) else { return nil }
            // Coplanar points leave a zero spread and a singular barycentric system.
            guard eigen.values.z > 0, eigen.values.x > 1e-10 * eigen.values.z else { return nil }
            axes = eigen.vectors
            spreads = [eigen.values.x.squareRoot(), eigen.values.y.squareRoot(), eigen.values.z.squareRoot()]
        }

        /// `α` with `Σ αⱼ = 1` and `Σ αⱼ cⱼ = point`.
        func barycentric(_ point: SIMD3<Double>) -> SIMD4<Double> {
            let offset = point - centroid
            let a1 = offset.dot(axes[0]) / spreads[0], a2 = offset.dot(axes[1]) / spreads[1], a3 = offset.dot(axes[2]) / spreads[2]
            return SIMD4(1 - a1 - a2 - a3, a1, a2, a3)
        }
    }

    /// The eigenvectors of `MᵀM` for its four smallest eigenvalues, smallest first. Each point
    /// contributes the rows `[αⱼ, 0, −αⱼu]ⱼ` and `[0, αⱼ, −αⱼv]ⱼ`.
    private static func smallestEigenvectors(alphas: [SIMD4<Double>], image: [SIMD2<Double>]) -> [[Double]]? {
        var mtm = [Double](repeating: 0, count: 144)
        var rowU = [Double](repeating: 0, count: 12), rowV = [Double](repeating: 0, count: 12)
        for (alpha, point) in zip(alphas, image) {
            for j in 0 ..< 4 {
                rowU[3 * j] = alpha[j]; rowU[3 * j + 1] = 0; rowU[3 * j + 2] = -alpha[j] * point.x
                rowV[3 * j] = 0; rowV[3 * j + 1] = alpha[j]; rowV[3 * j + 2] = -alpha[j] * point.y
            }
            for r in 0 ..< 12 {
                let u = rowU[r], v = rowV[r]
                guard u != 0 || v != 0 else { continue }
                for c in r ..< 12 { mtm[r * 12 + c] += u * rowU[c] + v * rowV[c] }
            }
        }
        guard let eigen = PoseSymmetricEigen(mtm, size: 12) else { return nil }
        return Array(eigen.vectors[0 ..< 4])
    }

    /// The camera-frame control points `Σₖ βₖvₖ`, the points built from them, the sign that puts
    /// the points in front, and the rigid pose that carries the world points there.
    private static func pose(betas: SIMD4<Double>, nullSpace: [[Double]], alphas: [SIMD4<Double>], world: [SIMD3<Double>]) -> CameraPose? {
        var control = [SIMD3<Double>](repeating: .zero, count: 4)
        for j in 0 ..< 4 {
            for k in 0 ..< 4 {
                control[j] += betas[k] * SIMD3(nullSpace[k][3 * j], nullSpace[k][3 * j + 1], nullSpace[k][3 * j + 2])
            }
        }
        var inCam = alphas.map { a -> SIMD3<Double> in
            let first: SIMD3<Double> = a[0] * control[0] + a[1] * control[1]
            let second: SIMD3<Double> = a[2] * control[2] + a[3] * control[3]
            return first + second
        }
        if inCam.reduce(0, { $0 + $1.z }) < 0 { inCam = inCam.map { -$0 } }
        return PoseRigidAlignment.camFromWorld(pointsInWorld: world, pointsInCam: inCam)
    }

    /// The sum of squared normalised reprojection errors; infinite when a point is behind.
    private static func reprojectionError(_ pose: CameraPose, world: [SIMD3<Double>], image: [SIMD2<Double>]) -> Double {
        var total = 0.0
        for (point, observed) in zip(world, image) {
            let p = pose.pointInCam(point)
            guard p.z > 0 else { return .infinity }
            let dx = p.x / p.z - observed.x, dy = p.y / p.z - observed.y
            total += dx * dx + dy * dy
        }
        return total
    }
}
