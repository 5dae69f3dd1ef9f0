import AtelierImaging
import Foundation

extension SparseReconstructor {
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
