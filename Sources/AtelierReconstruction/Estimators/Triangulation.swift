import AtelierGeometry
import Foundation

/// Points from their observations in cameras of known pose: how incremental SfM turns feature
/// tracks into 3-D points, and how the two-view step checks which way a relative pose faces.
public enum Triangulation {
    /// The point seen at `normalised` (undistorted normalised coordinates) by each camera, by the
    /// linear DLT of Hartley & Zisserman §12.2 over all N ≥ 2 views: each view gives the rows
    /// `u P₃ − P₁` and `v P₃ − P₂` of `A X = 0`, and `X` is the right singular vector of the
    /// smallest singular value (the algebraic least-squares point).
    ///
    /// The world frame is first moved to the centroid of the camera centres and scaled by their
    /// spread, which conditions the system and makes "at infinity" mean "farther than 10⁸
    /// baselines". Nil for fewer than two views, cameras sharing one centre, a rank-deficient
    /// system, or a point at infinity (parallel rays). Cheirality is not checked: see
    /// `depth(of:in:)` and `isInFront(_:of:)`.
    public static func point(_ observations: [(camFromWorld: CameraPose, normalised: SIMD2<Double>)]) -> SIMD3<Double>? {
        guard observations.count >= 2 else { return nil }
        let centres = observations.map { $0.camFromWorld.centre }
        let centroid = centres.reduce(SIMD3<Double>.zero, +) / Double(centres.count)
        let spread = centres.reduce(0.0) { $0 + ($1 - centroid).length } / Double(centres.count)
        guard spread > 0, spread.isFinite else { return nil }

        // In the shifted, scaled frame X = centroid + spread · X′, so camFromWorld · X + t becomes
        // spread · (R X′ + (R · centroid + t) / spread): the same projection with t′.
        var rows: [Double] = []
        rows.reserveCapacity(8 * observations.count)
        for (pose, uv) in observations {
            let r = pose.camFromWorld
            let t = (r * centroid + pose.translation) / spread
            let p0 = SIMD4(r.row0, t.x), p1 = SIMD4(r.row1, t.y), p2 = SIMD4(r.row2, t.z)
            let a = uv.x * p2 - p0, b = uv.y * p2 - p1
            rows += [a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w]
        }
        let svd = SingularValueDecomposition(rows: 2 * observations.count, columns: 4, values: rows)
        // The ray directions alone (three unknowns) must be determined: σ₃ ≫ σ₄.
        guard svd.singularValues[2] > 1e-12 * svd.singularValues[0] else { return nil }
        let x = svd.smallestRightVector
        let direction = SIMD3(x[0], x[1], x[2])
        guard abs(x[3]) > 1e-8 * direction.length else { return nil }
        let point = centroid + spread * direction / x[3]
        return point.x.isFinite && point.y.isFinite && point.z.isFinite ? point : nil
    }

    /// The angle (radians, in [0, π]) at `point` between the rays to the two camera centres: the
    /// triangulation angle, which bounds how well the depth of `point` is determined.
    public static func angleRadians(centre1: SIMD3<Double>, centre2: SIMD3<Double>, point: SIMD3<Double>) -> Double {
        let ray1 = centre1 - point, ray2 = centre2 - point
        return atan2(ray1.cross(ray2).length, ray1.dot(ray2))
    }

    /// The depth of `pointInWorld` along the optical axis of `camFromWorld` (the z of the point
    /// in the camera frame); positive in front of the camera.
    @inlinable public static func depth(of pointInWorld: SIMD3<Double>, in camFromWorld: CameraPose) -> Double {
        camFromWorld.pointInCam(pointInWorld).z
    }

    /// Whether `pointInWorld` is in front of the camera, at a depth in `(minDepth, maxDepth)`:
    /// COLMAP's cheirality test, whose upper bound rejects points so far away (relative to the
    /// baseline) that their side of the camera is down to noise.
    @inlinable public static func isInFront(_ pointInWorld: SIMD3<Double>, of camFromWorld: CameraPose,
                                            minDepth: Double = .ulpOfOne, maxDepth: Double = .infinity) -> Bool {
        let z = depth(of: pointInWorld, in: camFromWorld)
        return z > minDepth && z < maxDepth
    }
}
