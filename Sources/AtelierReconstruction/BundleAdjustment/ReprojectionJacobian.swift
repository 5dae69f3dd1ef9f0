import AtelierGeometry

/// The reprojection residual of one observation and its analytic derivatives with respect to
/// the pose increment, the intrinsics and the point.
///
/// The residual is `pixel(point) − observed` for a COLMAP `RADIAL` camera:
/// `pointInCam = R X + t`, `n = (x/z, y/z)`, `d = n (1 + k1 r² + k2 r⁴)`, `pixel = f d + c`.
/// The pose increment `(δθ, δt)` acts as `R ← exp([δθ]×) R`, `t ← t + δt` (rotation on the left,
/// in the camera frame), so `∂pointInCam/∂δθ = −[R X]×` and `∂pointInCam/∂δt = I`; the chain rule
/// does the rest (Hartley & Zisserman, 2nd ed., §A6.3 for the sparse structure this feeds).
struct ReprojectionJacobian {
    var residual: SIMD2<Double>
    /// ∂residual.x and ∂residual.y by `(δθx, δθy, δθz, δtx, δty, δtz)` in lanes 0–5.
    var byPoseX: SIMD8<Double>, byPoseY: SIMD8<Double>
    /// ∂residual by `(f, cx, cy, k1, k2)` in lanes 0–4 (`BundleAdjustmentParameters` order).
    var byIntrinsicsX: SIMD8<Double>, byIntrinsicsY: SIMD8<Double>
    /// ∂residual by the point's world coordinates.
    var byPointX: SIMD3<Double>, byPointY: SIMD3<Double>

    /// The residual alone, or nil when the point is not in front of the camera.
    @inline(__always)
    static func residual(camera: CameraIntrinsics, pose: CameraPose, point: SIMD3<Double>, observed: SIMD2<Double>) -> SIMD2<Double>? {
        let pointInCam = pose.camFromWorld * point + pose.translation
        guard pointInCam.z > 0 else { return nil }
        return camera.pixel(fromNormalised: SIMD2(pointInCam.x / pointInCam.z, pointInCam.y / pointInCam.z)) - observed
    }

    /// The residual and its derivatives, or nil when the point is not in front of the camera.
    @inline(__always)
    init?(camera: CameraIntrinsics, pose: CameraPose, point: SIMD3<Double>, observed: SIMD2<Double>) {
        let rotated = pose.camFromWorld * point
        let pointInCam = rotated + pose.translation
        guard pointInCam.z > 0 else { return nil }
        let inverseZ = 1 / pointInCam.z
        let n = SIMD2(pointInCam.x / pointInCam.z, pointInCam.y / pointInCam.z)   // as `residual` computes it
        let r2 = n.x * n.x + n.y * n.y
        let scale = 1 + r2 * (camera.k1 + camera.k2 * r2)
        let scaleByR2 = camera.k1 + 2 * camera.k2 * r2
        let distorted = n * scale
        let f = camera.focalLengthPixels
        residual = f * distorted + camera.principalPoint - observed

        // ∂pixel/∂n = f (scale I + 2 scale′ n nᵀ), then ∂n/∂pointInCam = (1/z) [I | −n].
        let a00 = f * (scale + 2 * scaleByR2 * n.x * n.x)
        let a01 = f * (2 * scaleByR2 * n.x * n.y)
        let a11 = f * (scale + 2 * scaleByR2 * n.y * n.y)
        let dnxByCam = SIMD3(inverseZ, 0, -n.x * inverseZ)
        let dnyByCam = SIMD3(0, inverseZ, -n.y * inverseZ)
        let byCamX = a00 * dnxByCam + a01 * dnyByCam
        let byCamY = a01 * dnxByCam + a11 * dnyByCam

        // a · (δθ × q) = δθ · (q × a) with q = R X; a · δt = δt · a; a · R δX = δX · Rᵀ a.
        let byRotationX = rotated.cross(byCamX), byRotationY = rotated.cross(byCamY)
        byPoseX = SIMD8(byRotationX.x, byRotationX.y, byRotationX.z, byCamX.x, byCamX.y, byCamX.z, 0, 0)
        byPoseY = SIMD8(byRotationY.x, byRotationY.y, byRotationY.z, byCamY.x, byCamY.y, byCamY.z, 0, 0)
        // Rᵀ a, written out: `Matrix3.transposed` is not inlined across modules.
        let r = pose.camFromWorld
        byPointX = byCamX.x * r.row0 + byCamX.y * r.row1 + byCamX.z * r.row2
        byPointY = byCamY.x * r.row0 + byCamY.y * r.row1 + byCamY.z * r.row2

        let r4 = r2 * r2
        byIntrinsicsX = SIMD8(distorted.x, 1, 0, f * n.x * r2, f * n.x * r4, 0, 0, 0)
        byIntrinsicsY = SIMD8(distorted.y, 0, 1, f * n.y * r2, f * n.y * r4, 0, 0, 0)
    }
}
