import AtelierGeometry

/// The rigid motion that best maps one point set onto another in the least-squares sense, for
/// EPnP, which recovers the points in the camera frame and needs the pose that carries the world
/// points onto them: `SimilarityTransform.aligning` (Horn's quaternion method) with the scale
/// held at 1.
enum PoseRigidAlignment {
    /// The pose with `camFromWorld · pointsInWorld[i] + translation ≈ pointsInCam[i]`, or nil
    /// when the points are fewer than three, collinear or coincident (the rotation is then not
    /// determined).
    static func camFromWorld(pointsInWorld: [SIMD3<Double>], pointsInCam: [SIMD3<Double>]) -> CameraPose? {
        guard pointsInWorld.count >= 3, pointsInCam.count == pointsInWorld.count,
              let motion = SimilarityTransform.aligning(pointsInWorld, to: pointsInCam, withScale: false) else { return nil }
        return CameraPose(quaternion: Quaternion(motion.rotation), translation: motion.translation)
    }
}
