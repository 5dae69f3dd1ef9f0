import AtelierGeometry

/// A sparse reconstruction: cameras, the images registered so far with their poses, and the 3-D
/// points with the keypoints that see them. What `IncrementalMapper` grows and what the COLMAP
/// text files record.
public struct SparseModel: Sendable {
    /// A triangulated point and the keypoints that observe it (at least two, in registered images).
    public struct Point: Sendable {
        public var position: SIMD3<Double>
        /// The track it came from.
        public var track: Int
        public var observations: [TrackElement]
        /// sRGB colour sampled from the images, 0–255.
        public var colour: SIMD3<UInt8> = SIMD3(128, 128, 128)
    }

    /// Per image: its camera, and its pose once registered.
    public struct ImageState: Sendable {
        public var name: String
        public var camera: Int
        public var camFromWorld: CameraPose?
        public var isRegistered: Bool { camFromWorld != nil }
    }

    public var cameras: [CameraIntrinsics]
    public var images: [ImageState]
    /// Points by id; removed points leave nil so ids stay stable while mapping.
    public var points: [Point?] = []
    /// For each image, for each keypoint, the id of the point it observes or −1.
    public var pointOfKeypoint: [[Int32]]
    /// For each track, its point id or −1.
    public var pointOfTrack: [Int32]

    public init(cameras: [CameraIntrinsics], images: [ImageState], keypointCounts: [Int], trackCount: Int) {
        self.cameras = cameras
        self.images = images
        pointOfKeypoint = keypointCounts.map { [Int32](repeating: -1, count: $0) }
        pointOfTrack = [Int32](repeating: -1, count: trackCount)
    }

    public var registeredImages: [Int] { images.indices.filter { images[$0].isRegistered } }
    public var pointCount: Int { points.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// The camera of `image`.
    public func intrinsics(of image: Int) -> CameraIntrinsics { cameras[images[image].camera] }

    /// Adds a point observed by `observations` (registered images, each at most once).
    @discardableResult
    public mutating func addPoint(position: SIMD3<Double>, track: Int, observations: [TrackElement]) -> Int {
        let id = points.count
        points.append(Point(position: position, track: track, observations: observations))
        for o in observations { pointOfKeypoint[Int(o.image)][Int(o.keypoint)] = Int32(id) }
        pointOfTrack[track] = Int32(id)
        return id
    }

    /// Adds one observation to an existing point.
    public mutating func addObservation(_ element: TrackElement, to id: Int) {
        points[id]!.observations.append(element)
        pointOfKeypoint[Int(element.image)][Int(element.keypoint)] = Int32(id)
    }

    /// Removes one observation; the point goes too when fewer than two remain.
    public mutating func removeObservation(_ element: TrackElement, from id: Int) {
        guard var point = points[id] else { return }
        point.observations.removeAll { $0 == element }
        pointOfKeypoint[Int(element.image)][Int(element.keypoint)] = -1
        if point.observations.count < 2 {
            removePoint(id, keeping: point)
        } else {
            points[id] = point
        }
    }

    /// Removes a point and every observation of it.
    public mutating func removePoint(_ id: Int) {
        guard let point = points[id] else { return }
        removePoint(id, keeping: point)
    }

    private mutating func removePoint(_ id: Int, keeping point: Point) {
        for o in point.observations { pointOfKeypoint[Int(o.image)][Int(o.keypoint)] = -1 }
        pointOfTrack[point.track] = -1
        points[id] = nil
    }

    /// The reprojection error in pixels of one observation, or nil when the point is behind the
    /// camera (or the image is not registered).
    public func reprojectionError(point id: Int, observation o: TrackElement, keypoints: [[SIMD2<Double>]]) -> Double? {
        guard let point = points[id], let pose = images[Int(o.image)].camFromWorld,
              let projected = intrinsics(of: Int(o.image)).project(pose.pointInCam(point.position)) else { return nil }
        let d = projected - keypoints[Int(o.image)][Int(o.keypoint)]
        return (d * d).sum().squareRoot()
    }
}
