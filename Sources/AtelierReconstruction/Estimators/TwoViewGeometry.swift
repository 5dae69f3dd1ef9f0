import AtelierGeometry
import Foundation

/// What a verified image pair tells incremental SfM: which model explains its matches, which
/// matches are right, and (when it can be recovered) how camera 2 sits relative to camera 1.
///
/// The configurations are COLMAP's (`TwoViewGeometry::ConfigurationType`): an initial pair must
/// be `calibrated` (or `planar`) with a wide median triangulation angle; `panoramic` pairs give
/// rotation only and no 3-D points.
public struct TwoViewGeometry: Sendable {
    public enum Configuration: Sendable, Equatable {
        /// The essential matrix explains the matches (as many inliers as the fundamental matrix).
        case calibrated
        /// Only the fundamental matrix explains them: the intrinsics are probably wrong.
        case uncalibrated
        /// A homography explains most of them and the camera moved: a planar scene.
        case planar
        /// A homography explains most of them and a rotation alone does too: the camera turned
        /// about its centre (or moved too little to tell), so depth is unobservable.
        case panoramic
        /// No model explains them. `TwoViewGeometryEstimator` returns nil instead; the case is
        /// here for callers that record rejected pairs, as COLMAP's database does.
        case degenerate
    }

    public var configuration: Configuration
    /// Indices into the correspondence arrays passed in, ascending.
    public var inliers: [Int]
    /// cam2FromCam1, |translation| = 1; nil when it could not be recovered (degenerate/panoramic).
    public var relativePose: CameraPose?
    /// Median angle (radians) between the two rays of the inliers that triangulate in front.
    public var medianTriangulationAngle: Double

    public init(configuration: Configuration, inliers: [Int], relativePose: CameraPose?, medianTriangulationAngle: Double) {
        self.configuration = configuration
        self.inliers = inliers
        self.relativePose = relativePose
        self.medianTriangulationAngle = medianTriangulationAngle
    }
}

/// How strictly an image pair is verified; the defaults are COLMAP's `TwoViewGeometryOptions`
/// and `RANSACOptions` where they exist.
public struct TwoViewGeometryOptions: Sendable {
    /// The largest reprojection (Sampson or transfer) error of an inlier, in pixels.
    public var maxErrorPixels: Double = 4        // COLMAP's default
    /// RANSAC stops once the chance of having missed a better all-inlier sample is below
    /// `1 − confidence`.
    public var confidence: Double = 0.9999
    public var maxIterations: Int = 10_000
    /// Pairs with fewer inliers are rejected (COLMAP's `min_num_inliers`).
    public var minInlierCount: Int = 15
    /// Pairs whose inliers are a smaller fraction of the matches are rejected.
    public var minInlierRatio: Double = 0.25
    /// Seed of the RANSAC samples, so a verification is the same on every run.
    public var seed: UInt64 = 1
    /// E inliers at least this fraction of F inliers make the pair `calibrated`
    /// (COLMAP's `min_E_F_inlier_ratio`).
    public var minEssentialToFundamentalInlierRatio: Double = 0.95
    /// H inliers above this fraction of the E (or F) inliers make the pair `planar` or
    /// `panoramic` (COLMAP's `max_H_inlier_ratio`).
    public var maxHomographyInlierRatio: Double = 0.8
    public init() {}
}
