import AtelierGeometry

/// One measurement for bundle adjustment: image `image` sees 3-D point `point` at `pixel`
/// (COLMAP's pixel convention, as `CameraIntrinsics` uses).
public struct BundleAdjustmentObservation: Sendable {
    public var image: Int32
    public var point: Int32
    public var pixel: SIMD2<Double>

    public init(image: Int32, point: Int32, pixel: SIMD2<Double>) {
        self.image = image
        self.point = point
        self.pixel = pixel
    }
}

/// A bundle adjustment problem: cameras (intrinsics, possibly shared by several images), the
/// `camFromWorld` pose of each image, the 3-D points in world coordinates and which image sees
/// which point where. `BundleAdjuster.adjust` refines it in place.
///
/// Several images may share one camera (`imageCamera[i]` is image `i`'s camera index); the shared
/// intrinsics then couple those images in the reduced camera system, as in COLMAP.
public struct BundleAdjustmentProblem: Sendable {
    public var cameras: [CameraIntrinsics]
    /// The camera index of each image.
    public var imageCamera: [Int]
    /// The `camFromWorld` pose of each image.
    public var poses: [CameraPose]
    public var points: [SIMD3<Double>]
    public var observations: [BundleAdjustmentObservation]

    public init(cameras: [CameraIntrinsics], imageCamera: [Int], poses: [CameraPose], points: [SIMD3<Double>], observations: [BundleAdjustmentObservation]) {
        self.cameras = cameras
        self.imageCamera = imageCamera
        self.poses = poses
        self.points = points
        self.observations = observations
    }
}
