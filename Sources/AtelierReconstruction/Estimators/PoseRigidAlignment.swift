import AtelierGeometry
import Foundation

/// The rigid motion that best maps one point set onto another in the least-squares sense:
/// Horn's closed form with unit quaternions ("Closed-form solution of absolute orientation using
/// unit quaternions", JOSA A 4(4), 1987).
///
/// EPnP recovers the points in the camera frame and needs the pose that carries the world points
/// onto them. Horn's method reads the rotation off the top eigenvector of a 4×4 symmetric matrix,
/// so it needs no 3×3 SVD and always yields a proper rotation (never a reflection).
enum PoseRigidAlignment {
    /// The pose with `camFromWorld · pointsInWorld[i] + translation ≈ pointsInCam[i]`, or nil
    /// when the points are fewer than three, collinear or coincident (the rotation is then not
    /// determined).
    static func camFromWorld(pointsInWorld: [SIMD3<Double>], pointsInCam: [SIMD3<Double>]) -> CameraPose? {
        let n = pointsInWorld.count
        guard n >= 3, pointsInCam.count == n else { return nil }
        var worldCentroid = SIMD3<Double>.zero, camCentroid = SIMD3<Double>.zero
        for i in 0 ..< n {
            worldCentroid += pointsInWorld[i]
            camCentroid += pointsInCam[i]
        }
        worldCentroid /= Double(n)
        camCentroid /= Double(n)

        // S = Σ (w − w̄)(c − c̄)ᵀ, the cross-covariance whose entries Horn's matrix is made of.
        var s = Matrix3.zero
        for i in 0 ..< n {
            s = s + Matrix3.outer(pointsInWorld[i] - worldCentroid, pointsInCam[i] - camCentroid)
        }
        let (sxx, sxy, sxz) = (s.row0.x, s.row0.y, s.row0.z)
        let (syx, syy, syz) = (s.row1.x, s.row1.y, s.row1.z)
        let (szx, szy, szz) = (s.row2.x, s.row2.y, s.row2.z)
        let horn: [Double] = [
            sxx + syy + szz, syz - szy, szx - sxz, sxy - syx,
            syz - szy, sxx - syy - szz, sxy + syx, szx + sxz,
            szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy,
            sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz,
        ]
        guard let eigen = PoseSymmetricEigen(horn, size: 4) else { return nil }
        // A unique rotation needs a simple top eigenvalue: with collinear points the top two meet.
        let top = eigen.values[3], gap = top - eigen.values[2]
        guard top > 0, gap > 1e-10 * top else { return nil }
        let q = eigen.vectors[3]
        let sign: Double = q[0] < 0 ? -1 : 1
        let quaternion = Quaternion(w: sign * q[0], x: sign * q[1], y: sign * q[2], z: sign * q[3])
        let rotation = quaternion.rotationMatrix
        return CameraPose(quaternion: quaternion, translation: camCentroid - rotation * worldCentroid)
    }
}
