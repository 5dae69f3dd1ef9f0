/// The thresholds of incremental mapping. Defaults follow COLMAP's mapper where it has one.
public struct MapperOptions: Sendable {
    /// The initial pair should see its points from at least this far apart (median angle between
    /// the two rays, degrees); pairs below it are tried only when no pair reaches it. COLMAP asks
    /// 16°, which a ring of 24 photos (15° apart) only meets between non-neighbours; 8° keeps
    /// the neighbours' many matches and is still well conditioned.
    public var initialMinTriangulationAngleDegrees = 8.0
    /// The initial pair must triangulate at least this many points.
    public var initialMinPoints = 50
    /// Pairs tried as the initial pair before giving up.
    public var initialMaxAttempts = 20
    /// A new point must be seen from at least two rays this far apart (degrees).
    public var minTriangulationAngleDegrees = 1.5
    /// Observations reprojecting further than this (pixels) are dropped.
    public var maxReprojectionErrorPixels = 4.0
    /// Registration of each next image: COLMAP's settings, but 15 inliers suffice instead of 30.
    /// A 12-photo ring (30° steps) at 640×480 leaves some photos seeing only 30–40 reconstructed
    /// points, and 30 refused a third of them; bundle adjustment and filtering guard the rest.
    public var absolutePose: AbsolutePoseOptions = {
        var options = AbsolutePoseOptions()
        options.minInlierCount = 15
        return options
    }()
    /// Images optimised together after each registration: the new one and the registered images
    /// sharing the most points with it.
    public var localBundleImages = 6
    /// A global bundle adjustment runs when the model has grown by at least this many images
    /// since the last one and by `globalBundleGrowth` (and always at the end, and whenever no
    /// image registers). The growth ratio keeps large captures from paying for a global
    /// adjustment every few images, as COLMAP's does (its ratio is 1.1, checked on points too):
    /// 72 photos at 640×480 took 31 s to map with one every 4 images, 22 s with the ratio, and
    /// the same accuracy.
    public var globalBundleInterval = 4
    public var globalBundleGrowth = 1.2
    /// What global bundle adjustments refine of each camera's intrinsics (from the third
    /// registered image on: two views cannot tell focal length from depth). The default is the
    /// focal length and k1. k2 is off by default: with the garment in the middle of the frame few
    /// points reach the corners, where k2 acts, and a free k2 trades off against the focal length
    /// (on a 24-photo ring it moved the focal length 0.6% off the truth, against 0.25% with k2 held
    /// at 0); the principal point is off as in COLMAP, since a ring of views barely constrains it.
    public var refineIntrinsics: IntrinsicsRefinement = [.focalLength, .k1]
    /// Attempts at registering one image before it is given up.
    public var maxRegistrationAttempts = 3
    public var threads = 0

    public init() {}
}

/// Which intrinsics bundle adjustment may change. k2 implies k1.
public struct IntrinsicsRefinement: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let focalLength = IntrinsicsRefinement(rawValue: 1)
    public static let principalPoint = IntrinsicsRefinement(rawValue: 2)
    public static let k1 = IntrinsicsRefinement(rawValue: 4)
    public static let k2 = IntrinsicsRefinement(rawValue: 8)
}
