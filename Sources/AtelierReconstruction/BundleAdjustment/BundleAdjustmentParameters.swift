import AtelierGeometry

/// The values bundle adjustment changes: intrinsics, poses and points, and how a
/// Levenberg–Marquardt step updates them.
///
/// Intrinsic parameters are numbered `(f, cx, cy, k1, k2)`; a pose increment is
/// `(δθx, δθy, δθz, δtx, δty, δtz)` and acts as `R ← exp([δθ]×) R`, `t ← t + δt`. Parameters
/// without a column are copied, never recomputed, so held poses come back bit-identical.
struct BundleAdjustmentParameters: Sendable {
    var cameras: [CameraIntrinsics]
    var poses: [CameraPose]
    var points: [SIMD3<Double>]

    /// The step `cameraStep` (one entry per reduced-system column) and `pointStep` (three per
    /// variable point) applied.
    func applying(cameraStep: UnsafePointer<Double>, pointStep: UnsafePointer<Double>, layout: BundleAdjustmentLayout) -> BundleAdjustmentParameters {
        var next = self
        for (c, b) in layout.cameraBlock.enumerated() where b >= 0 {
            let block = layout.blocks[Int(b)]
            for k in 0 ..< block.count {
                let delta = cameraStep[block.start + k]
                switch block.parameter[k] {
                case 0: next.cameras[c].focalLengthPixels += delta
                case 1: next.cameras[c].principalPoint.x += delta
                case 2: next.cameras[c].principalPoint.y += delta
                case 3: next.cameras[c].k1 += delta
                default: next.cameras[c].k2 += delta
                }
            }
        }
        for (i, b) in layout.poseBlock.enumerated() where b >= 0 {
            let block = layout.blocks[Int(b)]
            var increment = SIMD8<Double>(repeating: 0)
            for k in 0 ..< block.count { increment[Int(block.parameter[k])] = cameraStep[block.start + k] }
            let rotation = Matrix3.rotation(vector: SIMD3(increment[0], increment[1], increment[2])) * poses[i].camFromWorld
            next.poses[i] = CameraPose(quaternion: Quaternion(rotation),
                                       translation: poses[i].translation + SIMD3(increment[3], increment[4], increment[5]))
        }
        for (slot, p) in layout.variablePoints.enumerated() {
            next.points[Int(p)] += SIMD3(pointStep[3 * slot], pointStep[3 * slot + 1], pointStep[3 * slot + 2])
        }
        return next
    }

    /// The norm of the variable parameters, for the parameter tolerance: translations,
    /// intrinsics and points, plus one for each variable rotation (Ceres measures a rotation by
    /// its unit quaternion).
    func norm(layout: BundleAdjustmentLayout) -> Double {
        var sum = 0.0
        for (c, b) in layout.cameraBlock.enumerated() where b >= 0 {
            let camera = cameras[c]
            sum += camera.focalLengthPixels * camera.focalLengthPixels + camera.k1 * camera.k1 + camera.k2 * camera.k2
            sum += (camera.principalPoint * camera.principalPoint).sum()
        }
        for (i, b) in layout.poseBlock.enumerated() where b >= 0 {
            sum += 1 + poses[i].translation.dot(poses[i].translation)
        }
        for p in layout.variablePoints { sum += points[Int(p)].dot(points[Int(p)]) }
        return sum.squareRoot()
    }
}
