import AtelierImaging
import Foundation

extension SparseReconstructor {
    /// The photos that pre-processing found usable, in input order, with their features, and
    /// those it left out.
    struct Preprocessed {
        var used: [CaptureSource] = []
        /// Each used photo's index among the input photos.
        var inputIndex: [Int] = []
        var features: [Features] = []
        var focalLengths35mm: [Double?] = []
        /// Photos left out, with their input index (for input order once mapping adds its own).
        var skipped: [(Int, SkippedImage)] = []
        /// Photos whose features were kept to the silhouette found automatically.
        var automaticallyMasked = 0
    }

    /// Pre-processing: reads every photo once, leaves out duplicates and photos with too few
    /// features (each with its reason), and finds the features of the rest.
    func preprocess(_ sources: [CaptureSource], progress: @Sendable (ReconstructionProgress) -> Void) -> Preprocessed {
        var result = Preprocessed()
        var seenHashes: [Int: [Int]] = [:]
        for (index, source) in sources.enumerated() {
            progress(ReconstructionProgress(stage: .preProcessing, fraction: Double(index) / Double(max(1, sources.count)), detail: source.name))
            switch prepare(source, index: index, seen: &seenHashes, sources: sources) {
            case .failure(let reason):
                result.skipped.append((index, SkippedImage(name: source.name, reason: reason.text)))
            case .success(let prepared):
                result.used.append(source)
                result.inputIndex.append(index)
                result.features.append(prepared.features)
                result.focalLengths35mm.append(prepared.focalLength35mm)
                if prepared.autoMasked { result.automaticallyMasked += 1 }
            }
        }
        progress(ReconstructionProgress(stage: .preProcessing, fraction: 1, detail: "\(result.used.count) of \(sources.count) photos usable"))
        return result
    }

    /// One camera per image size and focal length (the EXIF 35 mm equivalent, or the default),
    /// and the camera of each image.
    func cameras(of features: [Features], focalLengths35mm: [Double?]) -> (cameras: [CameraIntrinsics], imageCamera: [Int]) {
        var cameraKeys: [String: Int] = [:], cameras: [CameraIntrinsics] = [], imageCamera: [Int] = []
        for (i, f) in features.enumerated() {
            let f35 = focalLengths35mm[i] ?? options.defaultFocalLength35mm
            let key = "\(f.imageWidth)x\(f.imageHeight)@\((f35 * 10).rounded())"
            if let camera = cameraKeys[key] {
                imageCamera.append(camera)
            } else {
                cameraKeys[key] = cameras.count
                imageCamera.append(cameras.count)
                cameras.append(CameraIntrinsics(width: f.imageWidth, height: f.imageHeight, focalLength35mm: f35))
            }
        }
        return (cameras, imageCamera)
    }

    struct PreparedImage {
        var features: Features
        var focalLength35mm: Double?
        /// Whether the garment's silhouette was found and used as the mask.
        var autoMasked: Bool
    }

    /// The garment's silhouette as a feature mask, found on a small decode of the photo (a
    /// JPEG at a reduced DCT scale), or nil when the photo has no plain backdrop.
    func silhouetteMask(_ bytes: [UInt8]) -> FeatureMask? {
        guard let decoded = try? bytes.withUnsafeBytes({ buffer throws(ImagingError) in try ImageDecoder.decode(buffer, channels: 3, minimumSide: 256) }),
              let silhouette = SubjectSilhouette(decoded.image) else { return nil }
        return try? FeatureMask(width: silhouette.width, height: silhouette.height, values: silhouette.cells)
    }

    /// Reads one photo and finds its features, or says why it cannot be used. A photo whose bytes
    /// equal an earlier one's is a duplicate: it adds nothing and would pair with its twin at zero
    /// baseline. `seen` maps a hash of each photo read so far to its index; only when two hashes
    /// agree is the earlier file read again to compare bytes, so no photo's bytes outlive its turn.
    func prepare(_ source: CaptureSource, index: Int, seen: inout [Int: [Int]],
                 sources: [CaptureSource]) -> Result<PreparedImage, SkippedReason> {
        let bytes: [UInt8]
        do {
            bytes = try Array(Data(contentsOf: URL(fileURLWithPath: source.path)))
        } catch {
            return .failure(SkippedReason("cannot be read: \((error as NSError).localizedDescription)"))
        }
        var hasher = Hasher()
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = hasher.finalize()
        if let twin = seen[key]?.first(where: { (try? Data(contentsOf: URL(fileURLWithPath: sources[$0].path))).map { Array($0) == bytes } ?? false }) {
            return .failure(SkippedReason("duplicate of \(sources[twin].name) (the same bytes)"))
        }
        seen[key, default: []].append(index)

        var mask: FeatureMask?
        if let maskPath = source.maskPath {
            do {
                let maskBytes = try Array(Data(contentsOf: URL(fileURLWithPath: maskPath)))
                let decoded = try maskBytes.withUnsafeBytes { buffer throws(ImagingError) in try ImageDecoder.decode(buffer, channels: 1) }
                mask = try FeatureMask(image: decoded.image)
            } catch {
                return .failure(SkippedReason("its mask \(maskPath) cannot be used: \(error)"))
            }
        }
        var autoMasked = false
        if mask == nil && options.automaticMasks {
            mask = silhouetteMask(bytes)
            autoMasked = mask != nil
        }
        let features: Features
        do {
            features = try bytes.withUnsafeBytes { buffer throws(ReconstructionError) in try extractor.extract(encoded: buffer, mask: mask) }
        } catch {
            return .failure(SkippedReason("\(error)"))
        }
        guard features.count >= options.minFeatures else {
            return .failure(SkippedReason("only \(features.count) features (at least \(options.minFeatures) needed): blank, uniform, out of focus or masked out"))
        }
        let focal = EXIF.read(bytes)?.focalLength35mmMillimetres.flatMap { $0 > 0 && $0 < 2000 ? $0 : nil }
        return .success(PreparedImage(features: features, focalLength35mm: focal, autoMasked: autoMasked))
    }

    /// Verifies each pair's matches (pairs in parallel) and keeps the pairs that pass, with
    /// their inlier matches.
    func verify(pairs: [(Int, Int)], matches: [[FeatureMatch]], keypoints: [[SIMD2<Double>]], cameras: [CameraIntrinsics],
                imageCamera: [Int], progress: @escaping @Sendable (Int) -> Void) -> [VerifiedPair] {
        let counter = ProgressCounter()
        let options = self.options
        let results: [VerifiedPair?] = WorkSplitter(threads: options.matching.threads).map(pairs.count, balanced: true) { index in
            defer { progress(counter.increment()) }
            let (i, j) = pairs[index], pairMatches = matches[index]
            guard pairMatches.count >= options.twoView.minInlierCount else { return nil }
            let pixels1 = pairMatches.map { keypoints[i][Int($0.index1)] }, pixels2 = pairMatches.map { keypoints[j][Int($0.index2)] }
            var twoView = options.twoView
            twoView.seed = options.twoView.seed &+ UInt64(index)
            guard let geometry = TwoViewGeometryEstimator.estimate(pixels1: pixels1, camera1: cameras[imageCamera[i]],
                                                                   pixels2: pixels2, camera2: cameras[imageCamera[j]], options: twoView),
                  geometry.configuration != .degenerate else { return nil }
            return VerifiedPair(image1: i, image2: j, matches: geometry.inliers.map { pairMatches[$0] }, geometry: geometry)
        }
        return results.compactMap { $0 }
    }
}

/// Why a photo was skipped; an `Error` so it can travel in a `Result`.
struct SkippedReason: Error {
    var text: String
    init(_ text: String) { self.text = text }
}
