import AtelierGeometry
import AtelierImaging
import Foundation

/// Settings of dense reconstruction.
public struct DenseOptions: Sendable {
    /// Photos are worked on at most this many pixels on the longer side (Object Capture also
    /// downscales for its lower detail levels).
    public var workingSide = 768
    public var patchMatch = PatchMatchOptions()
    /// A point needs this many other views agreeing with it to be kept.
    public var minConsistentViews = 2
    /// Use each photo's mask (`CaptureSource.maskPath`), or its silhouette on a plain backdrop
    /// when `automaticMasks`, to keep depth on the garment.
    public var automaticMasks = false
    /// Worker threads (0: one per core).
    public var threads = 0

    public init() {}
}

/// The result of dense reconstruction: the working views, their fused depth maps, and the
/// oriented point cloud.
public struct DenseReconstruction: Sendable {
    public var views: [DenseView]
    /// Depth maps, cleared where fusion found no agreement.
    public var depthMaps: [DepthMap]
    public var points: [DensePoint]
    /// Photos that could not be read again for this stage, with the reason.
    public var skipped: [SkippedImage]
    /// Whether the depth maps and points came from a checkpoint.
    public var resumed = false
}

/// Fused depth maps and dense points that a run can start from instead of computing them
/// (`--checkpoint`). Depth maps are in the order of the registered images, by `images`.
public struct DenseCheckpoint: Sendable {
    public var images: [Int]
    public var depthMaps: [DepthMap]
    public var densePoints: [DensePoint]

    public init(images: [Int], depthMaps: [DepthMap], densePoints: [DensePoint]) {
        self.images = images
        self.depthMaps = depthMaps
        self.densePoints = densePoints
    }
}

/// Multi-view stereo over a sparse model: PatchMatch depth maps for every registered photo,
/// then fusion into one oriented, coloured point cloud.
public struct DenseReconstructor: Sendable {
    public var options: DenseOptions

    public init(options: DenseOptions = DenseOptions()) { self.options = options }

    /// Depth maps of the registered photos of `model`, whose image `i` was read from `sources[i]`,
    /// fused into points. `progress` gets the fraction done (0–1) and a note.
    /// With `resume`, the photos are read again but its depth maps and points are used as they are.
    public func reconstruct(_ model: SparseModel, sources: [CaptureSource], resume: DenseCheckpoint? = nil,
                            progress: (@Sendable (Double, String) -> Void)? = nil) -> DenseReconstruction {
        let splitter = WorkSplitter(threads: options.threads)
        let registered = model.registeredImages
        let options = self.options
        progress?(0, "reading photos")
        let loaded: [Result<DenseView, SkippedImage.AsError>] = splitter.map(registered.count, balanced: true) { k in
            Self.load(image: registered[k], model: model, source: sources[registered[k]], options: options)
        }
        var loadedViews: [DenseView] = [], skipped: [SkippedImage] = []
        for result in loaded {
            switch result {
            case .success(let view): loadedViews.append(view)
            case .failure(let reason): skipped.append(reason.skipped)
            }
        }
        let views = loadedViews
        progress?(0.05, "\(views.count) photos read")
        if let resume, resume.images == views.map(\.image), resume.depthMaps.count == views.count,
           zip(resume.depthMaps, views).allSatisfy({ $0.width == $1.width && $0.height == $1.height }) {
            progress?(1, "\(resume.densePoints.count) points (from the checkpoint)")
            return DenseReconstruction(views: views, depthMaps: resume.depthMaps, points: resume.densePoints, skipped: skipped, resumed: true)
        }
        let neighbours = ViewNeighbours.choose(in: model, images: views.map(\.image), count: options.patchMatch.sourceViews)
        let done = ProgressCounter()
        let total = views.count
        var maps: [DepthMap] = splitter.map(views.count, balanced: true) { r in
            defer {
                let finished = done.increment()
                progress?(0.05 + 0.85 * Double(finished) / Double(max(1, total)), "depth map \(finished)/\(total)")
            }
            guard !neighbours[r].isEmpty, let range = ViewNeighbours.depthRange(in: model, image: views[r].image) else {
                return DepthMap(width: views[r].width, height: views[r].height)
            }
            let stereo = PatchMatchStereo(reference: views[r], sources: neighbours[r].map { views[$0] }, depthRange: range,
                                          options: options.patchMatch, seed: UInt64(r) &* 0x2545_F491_4F6C_DD1D)
            return stereo.run()
        }
        progress?(0.9, "fusing depth maps")
        var settings = DepthFusion.Settings()
        settings.minConsistentViews = options.minConsistentViews
        let points = DepthFusion.fuse(views: views, maps: &maps, neighbours: neighbours, settings: settings, splitter: splitter)
        progress?(1, "\(points.count) points")
        return DenseReconstruction(views: views, depthMaps: maps, points: points, skipped: skipped)
    }

    /// The working size for a camera: the longer side brought down to `workingSide`, never up.
    static func workingSize(_ camera: CameraIntrinsics, side: Int) -> (Int, Int) {
        let scale = min(1, Double(side) / Double(max(camera.width, camera.height)))
        return (max(16, Int((Double(camera.width) * scale).rounded())), max(16, Int((Double(camera.height) * scale).rounded())))
    }

    static func load(image: Int, model: SparseModel, source: CaptureSource, options: DenseOptions) -> Result<DenseView, SkippedImage.AsError> {
        let camera = model.intrinsics(of: image)
        let (width, height) = workingSize(camera, side: options.workingSide)
        let decoded: ImageDecoder.Decoded
        do {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: source.path)))
            decoded = try bytes.withUnsafeBytes { buffer throws(ImagingError) in
                try ImageDecoder.decode(buffer, channels: 3, minimumSide: min(width, height))
            }
        } catch {
            return .failure(.init(skipped: SkippedImage(name: source.name, reason: "cannot be read for dense reconstruction: \(error)")))
        }
        var mask: FeatureMask?
        if let maskPath = source.maskPath,
           let bytes = try? Array(Data(contentsOf: URL(fileURLWithPath: maskPath))),
           let decodedMask = try? bytes.withUnsafeBytes({ buffer throws(ImagingError) in try ImageDecoder.decode(buffer, channels: 1) }) {
            mask = try? FeatureMask(image: decodedMask.image)
        } else if options.automaticMasks, let silhouette = SubjectSilhouette(decoded.image) {
            mask = try? FeatureMask(width: silhouette.width, height: silhouette.height, values: silhouette.cells)
        }
        // Resample from a photo no more than twice the working size, so bilinear reads do not alias.
        var photo = decoded.image
        if photo.width > 2 * width { photo = photo.resized(width: 2 * width, height: max(1, photo.height * 2 * width / photo.width), filter: .lanczos3) }
        return .success(DenseView(image: image, name: source.name, camera: camera, pose: model.images[image].camFromWorld!,
                                  photo: photo, mask: mask, width: width, height: height))
    }
}

extension SkippedImage {
    /// A skipped photo carried as the failure of a `Result`.
    struct AsError: Error { var skipped: SkippedImage }
}
