import AtelierImaging
import Foundation

/// Photos in, cameras and a sparse point cloud out: features, matching and geometric
/// verification, then incremental mapping, reporting progress by stage.
///
/// Photos that cannot be used (unreadable, duplicates, too few features) and photos that
/// could not be registered are not errors: they are listed in `SparseReconstruction.skipped`
/// with the reason, as Object Capture lists invalid and skipped samples. It throws only when
/// fewer than three photos are usable, or when no model can be started at all.
public struct SparseReconstructor: Sendable {
    public let options: ReconstructionOptions
    let extractor: FeatureExtractor
    let pairMatcher: PairMatcher

    public init(options: ReconstructionOptions = ReconstructionOptions()) throws(ReconstructionError) {
        self.options = options
        extractor = try FeatureExtractor(settings: options.features)
        pairMatcher = try PairMatcher(options: options.matching)
    }

    public func reconstruct(_ sources: [CaptureSource],
                            progress: @escaping @Sendable (ReconstructionProgress) -> Void = { _ in }) throws(ReconstructionError) -> SparseReconstruction {
        var seconds: [ReconstructionStage: Double] = [:]
        var clock = Date()
        func lap(_ stage: ReconstructionStage) {
            seconds[stage] = Date().timeIntervalSince(clock)
            clock = Date()
        }

        // Pre-processing: read, drop duplicates, find features.
        var prepared = preprocess(sources, progress: progress)
        let used = prepared.used, features = prepared.features
        lap(.preProcessing)
        guard used.count >= 3 else {
            throw .notEnoughImages(usable: used.count, skipped: prepared.skipped.map(\.1))
        }
        let (cameras, imageCamera) = cameras(of: features, focalLengths35mm: prepared.focalLengths35mm)
        let keypoints = features.map { $0.keypoints.map { SIMD2(Double($0.x), Double($0.y)) } }

        // Matching and verification.
        let pairs = options.imagePairs(count: used.count).pairs(count: used.count)
        let total = Double(pairs.count * 2)
        let matches = pairMatcher.match(features, pairs: pairs) { done in
            progress(ReconstructionProgress(stage: .featureMatching, fraction: Double(done) / total, detail: "\(done)/\(pairs.count) pairs matched"))
        }
        let verified = verify(pairs: pairs, matches: matches, keypoints: keypoints, cameras: cameras, imageCamera: imageCamera) { done in
            progress(ReconstructionProgress(stage: .featureMatching, fraction: (Double(pairs.count) + Double(done)) / total,
                                            detail: "\(done)/\(pairs.count) pairs verified"))
        }
        lap(.featureMatching)

        // Mapping.
        let imageCount = used.count
        var mapper = IncrementalMapper(names: used.map(\.name), cameras: cameras, imageCamera: imageCamera, keypoints: keypoints,
                                       pairs: verified, options: options.mapper) { event in
            switch event {
            case .initialised(let a, let b, let points):
                progress(ReconstructionProgress(stage: .imageAlignment, fraction: 2 / Double(imageCount), detail: "started from \(used[a].name) and \(used[b].name) (\(points) points)"))
            case .registered(let image, let registered, let total):
                progress(ReconstructionProgress(stage: .imageAlignment, fraction: Double(registered) / Double(total), detail: "\(registered)/\(total) registered (\(used[image].name))"))
            case .adjusted(let rms):
                progress(ReconstructionProgress(stage: .imageAlignment, fraction: -1, detail: String(format: "bundle adjusted, %.2f px RMS", rms)))
            }
        }
        var mapping = mapper.run()
        guard mapping.model.registeredImages.count >= 2 else {
            throw .nothingRegistered(reasons: prepared.skipped.map(\.1) + mapping.unregistered.map { SkippedImage(name: used[$0.image].name, reason: $0.reason) })
        }
        PointColours.assign(to: &mapping.model, sources: used, keypoints: keypoints)
        progress(ReconstructionProgress(stage: .imageAlignment, fraction: 1, detail: "\(mapping.model.registeredImages.count)/\(used.count) registered"))
        lap(.imageAlignment)

        // Unregistered photos join the skipped list in input order.
        prepared.skipped += mapping.unregistered.map { (prepared.inputIndex[$0.image], SkippedImage(name: used[$0.image].name, reason: $0.reason)) }
        prepared.skipped.sort { $0.0 < $1.0 }
        return SparseReconstruction(used: used, keypoints: keypoints, mapping: mapping, skipped: prepared.skipped.map(\.1),
                                    verifiedPairs: verified.count, automaticallyMasked: prepared.automaticallyMasked, stageSeconds: seconds)
    }
}
