import AtelierGeometry
import Foundation

/// What the mapper reports as it goes, for progress displays.
public enum MapperEvent: Sendable {
    /// The initial pair was chosen and triangulated.
    case initialised(image1: Int, image2: Int, points: Int)
    /// `image` was registered; `registered` images of `total` are in the model.
    case registered(image: Int, registered: Int, total: Int)
    /// A global bundle adjustment finished.
    case adjusted(rmsErrorPixels: Double)
}

/// Incremental structure from motion (Schönberger & Frahm, "Structure-from-Motion Revisited",
/// CVPR 2016, the method of COLMAP): start from the best-conditioned pair of images, then
/// repeatedly register the image that sees the most reconstructed points (P3P in LO-RANSAC),
/// triangulate the tracks it completes, refine locally by bundle adjustment, and every few
/// images refine everything, filter observations that no longer fit, and re-triangulate.
///
/// Tracks are fixed before mapping (`Tracks`): a point is a track, so merging and splitting
/// points is not needed, and an observation dropped as an outlier can come back when its image's
/// pose improves (`completeTracks`).
public struct IncrementalMapper {
    public let options: MapperOptions
    let tracks: Tracks
    /// Keypoint positions in pixels, per image.
    let keypoints: [[SIMD2<Double>]]
    let pairs: [VerifiedPair]
    var model: SparseModel
    /// The two images the model started from: the first's pose and one coordinate of the
    /// second's position are held fixed in global adjustments (the gauge).
    var initialPair: (Int, Int)?
    var failedAttempts: [Int]
    var failureReasons: [Int: String] = [:]
    let onEvent: (MapperEvent) -> Void

    /// Maps images named `names`, seen by `cameras` (image `i` by camera `imageCamera[i]`), with
    /// keypoints `keypoints` and the verified pairs between them.
    public init(names: [String], cameras: [CameraIntrinsics], imageCamera: [Int], keypoints: [[SIMD2<Double>]],
                pairs: [VerifiedPair], options: MapperOptions = MapperOptions(), onEvent: @escaping (MapperEvent) -> Void = { _ in }) {
        precondition(names.count == imageCamera.count && names.count == keypoints.count)
        self.options = options
        self.keypoints = keypoints
        self.pairs = pairs
        self.onEvent = onEvent
        tracks = Tracks(keypointCounts: keypoints.map(\.count), pairs: pairs)
        let images = names.indices.map { SparseModel.ImageState(name: names[$0], camera: imageCamera[$0], camFromWorld: nil) }
        model = SparseModel(cameras: cameras, images: images, keypointCounts: keypoints.map(\.count), trackCount: tracks.count)
        failedAttempts = [Int](repeating: 0, count: names.count)
    }

    /// Runs the whole mapping and returns the model; nil-free even when nothing could be
    /// registered (the result then says why for every image).
    public mutating func run() -> MappingResult {
        guard initialise() else { return result(noInitialPairReason: true) }
        var sinceGlobal = 0, everAdjustedGlobally = false, registeredAtLastGlobal = model.registeredImages.count
        while true {
            guard let image = registerNextImage() else {
                // Nothing more registers now. When the model has grown since the last global
                // adjustment, adjust it and let every image try again: better poses and new
                // points may let them in. Otherwise this is as far as it goes.
                guard sinceGlobal > 0 else { break }
                adjustGlobally()
                everAdjustedGlobally = true
                sinceGlobal = 0
                registeredAtLastGlobal = model.registeredImages.count
                failedAttempts = failedAttempts.map { _ in 0 }
                continue
            }
            triangulate(image: image)
            adjustLocally(around: image)
            sinceGlobal += 1
            let registered = model.registeredImages.count
            if sinceGlobal >= options.globalBundleInterval && Double(registered) >= options.globalBundleGrowth * Double(registeredAtLastGlobal) {
                adjustGlobally()
                everAdjustedGlobally = true
                sinceGlobal = 0
                registeredAtLastGlobal = registered
            }
        }
        if !everAdjustedGlobally { adjustGlobally() }
        return result(noInitialPairReason: false)
    }

    /// Bundle-adjusts everything, drops what no longer fits, re-triangulates, and adjusts again
    /// when that changed the model.
    mutating func adjustGlobally() {
        let refine = !options.refineIntrinsics.isEmpty && model.registeredImages.count >= 3
        var report = bundleAdjust(variableImages: Set(model.registeredImages), refineIntrinsics: refine)?.report
        filter(points: nil)
        if completeTracks() + triangulateAll() > 0 {
            report = bundleAdjust(variableImages: Set(model.registeredImages), refineIntrinsics: refine)?.report ?? report
            filter(points: nil)
        }
        if let report { onEvent(.adjusted(rmsErrorPixels: report.finalRMSErrorPixels)) }
    }

    func result(noInitialPairReason: Bool) -> MappingResult {
        var unregistered: [(image: Int, reason: String)] = []
        for i in model.images.indices where !model.images[i].isRegistered {
            let linked = pairs.contains { $0.image1 == i || $0.image2 == i }
            let reason = failureReasons[i] ?? (noInitialPairReason && linked
                ? "no pair of images had enough verified matches seen from different enough viewpoints to start from"
                : Self.connectionReason(image: i, pairs: pairs))
            unregistered.append((i, reason))
        }
        var meanErrors = [Double?](repeating: nil, count: model.points.count)
        var total = 0.0, observations = 0, pointCount = 0
        for (id, point) in model.points.enumerated() {
            guard let point else { continue }
            var sum = 0.0, n = 0
            for o in point.observations {
                if let e = model.reprojectionError(point: id, observation: o, keypoints: keypoints) {
                    sum += e
                    n += 1
                }
            }
            meanErrors[id] = n > 0 ? sum / Double(n) : 0
            total += sum
            observations += point.observations.count
            pointCount += 1
        }
        return MappingResult(model: model, unregistered: unregistered, meanErrors: meanErrors,
                             meanReprojectionErrorPixels: observations > 0 ? total / Double(observations) : 0,
                             meanTrackLength: pointCount > 0 ? Double(observations) / Double(pointCount) : 0)
    }

    static func connectionReason(image: Int, pairs: [VerifiedPair]) -> String {
        let linked = pairs.filter { $0.image1 == image || $0.image2 == image }
        if linked.isEmpty { return "no verified matches with any other image (no overlap, too little texture, or a different scene)" }
        // No counts in the words: photos left out for one cause are told in one line.
        return "its verified pairs did not tie it to the reconstructed points"
    }

    /// The normalised (undistorted) coordinates of a keypoint.
    func normalised(_ element: TrackElement) -> SIMD2<Double> {
        model.intrinsics(of: Int(element.image)).normalised(fromPixel: keypoints[Int(element.image)][Int(element.keypoint)])
    }
}
