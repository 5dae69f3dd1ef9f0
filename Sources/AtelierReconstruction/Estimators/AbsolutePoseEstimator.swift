import AtelierGeometry
import Foundation

/// What `AbsolutePoseEstimator` accepts as an inlier and as a registration. The defaults are
/// COLMAP's for registering an image in incremental mapping (`abs_pose_max_error`,
/// `abs_pose_min_num_inliers`, `abs_pose_min_inlier_ratio`).
public struct AbsolutePoseOptions: Sendable {
    /// The largest reprojection error of an inlier, in pixels (COLMAP's `abs_pose_max_error`).
    public var maxErrorPixels: Double = 12
    public var confidence: Double = 0.9999
    public var maxIterations: Int = 10_000
    /// Fewer inliers than this and the image is not registered.
    public var minInlierCount: Int = 30
    /// Nor with a smaller fraction of the correspondences as inliers.
    public var minInlierRatio: Double = 0.25
    /// Refine the focal length with the pose after RANSAC (RANSAC itself uses the given one).
    public var refineFocalLength: Bool = false
    public var seed: UInt64 = 1
    public init() {}
}

/// A registered camera: its pose, focal length and the correspondences it explains.
public struct AbsolutePoseEstimate: Sendable {
    public var camFromWorld: CameraPose
    /// The focal length after refinement (the input's when refineFocalLength is false).
    public var focalLengthPixels: Double
    /// Indices into the input arrays, ascending.
    public var inliers: [Int]
}

/// Registers an image against the reconstruction: the camera pose from 2D–3D correspondences
/// with outliers, as COLMAP's `EstimateAbsolutePose` followed by `RefineAbsolutePose`
/// (Schönberger & Frahm, "Structure-from-Motion Revisited", CVPR 2016).
///
/// Lambda Twist P3P samples in LO-MSAC (`AbsolutePoseProblem`), EPnP and a short robust
/// Levenberg–Marquardt on the inliers as local optimisation, then `PoseRefiner` (Cauchy loss,
/// 1 px) on the final inliers, re-selecting the inliers under the refined pose until they settle.
public enum AbsolutePoseEstimator {
    /// `normalised[i]` is the undistorted normalised image point (x/z, y/z) of world point
    /// `pointsInWorld[i]` under a camera of focal length `focalLengthPixels` (used for thresholds
    /// and, with refineFocalLength, refined: normalised points are then rescaled accordingly).
    /// P3P in LO-RANSAC, EPnP on the inliers, then PoseRefiner. nil when too few inliers.
    ///
    /// With `refineFocalLength`, what stays fixed are the measured pixel offsets from the
    /// principal point, `focalLengthPixels × normalised[i]`: under the refined focal length `f'`
    /// the normalised points become `normalised[i] × focalLengthPixels / f'`. A caller that has
    /// undistorted pixel offsets `o[i]` and a focal guess `f` passes `o[i] / f` and `f`.
    /// Nil also for mismatched array lengths or a focal length that is not positive.
    public static func estimate(normalised: [SIMD2<Double>], pointsInWorld: [SIMD3<Double>],
                                focalLengthPixels: Double, options: AbsolutePoseOptions) -> AbsolutePoseEstimate? {
        let count = normalised.count
        guard count == pointsInWorld.count, count >= 3, focalLengthPixels > 0, focalLengthPixels.isFinite else { return nil }
        let problem = AbsolutePoseProblem(normalised: normalised, pointsInWorld: pointsInWorld, focalLengthPixels: focalLengthPixels)
        let ransacOptions = RANSACOptions(maxResidual: options.maxErrorPixels, confidence: options.confidence,
                                          maxIterations: options.maxIterations, seed: options.seed)
        guard let ransac = RANSAC.estimate(problem, options: ransacOptions) else { return nil }

        var refinerOptions = PoseRefinerOptions()
        refinerOptions.refineFocalLength = options.refineFocalLength
        let threshold2 = options.maxErrorPixels * options.maxErrorPixels
        var pose = ransac.model, focal = focalLengthPixels, inliers = ransac.inliers
        for _ in 0 ..< 4 {
            guard inliers.count >= 3 else { break }
            let refined = PoseRefiner.refine(camFromWorld: pose, focalLengthPixels: focal,
                                             normalised: rescaled(normalised, from: focalLengthPixels, to: focal),
                                             pointsInWorld: pointsInWorld, indices: inliers, options: refinerOptions)
            pose = refined.camFromWorld
            focal = refined.focalLengthPixels
            let underRefined = AbsolutePoseProblem(normalised: rescaled(normalised, from: focalLengthPixels, to: focal),
                                                   pointsInWorld: pointsInWorld, focalLengthPixels: focal)
            let settled = RANSAC.inlierIndices(underRefined, pose, threshold2: threshold2)
            if settled == inliers { break }
            inliers = settled
        }
        guard inliers.count >= max(3, options.minInlierCount),
              Double(inliers.count) >= options.minInlierRatio * Double(count) else { return nil }
        return AbsolutePoseEstimate(camFromWorld: pose, focalLengthPixels: focal, inliers: inliers)
    }

    /// The normalised points that keep the pixel offsets `from × normalised` under focal length `to`.
    private static func rescaled(_ normalised: [SIMD2<Double>], from: Double, to: Double) -> [SIMD2<Double>] {
        from == to ? normalised : normalised.map { $0 * (from / to) }
    }
}
