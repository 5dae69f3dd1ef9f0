import AtelierRecords
import Foundation

extension NearDuplicateVerifier {
    /// What `verify(pairs:paths:)` found.
    public struct BatchResult: Sendable {
        /// Per pair, in the order given: whether the two photos are the same picture, or nil
        /// when either could not be read.
        public var verdicts: [Bool?]
        /// The photos that could not be read (index into `paths`) and why.
        public var unreadable: [Int: String]
        /// The features of every photo read, by index into `paths`, for pairs asked later.
        public var features: [Int: CompactFeatures]
    }

    /// Verifies many pairs of photos (indices into `paths`), finding each photo's features once,
    /// on every core: first the features of every photo some pair names, then the pairs.
    /// `progress(done, total)` is called from worker threads as photos and then pairs finish
    /// (totals: photos + pairs).
    public func verify(pairs: [(Int, Int)], paths: [String?], threads: Int = 0,
                       progress: (@Sendable (Int, Int) -> Void)? = nil) -> BatchResult {
        var isNeeded = [Bool](repeating: false, count: paths.count)
        for (a, b) in pairs {
            isNeeded[a] = true
            isNeeded[b] = true
        }
        let photos = isNeeded.indices.filter { isNeeded[$0] }
        let total = photos.count + pairs.count
        let splitter = WorkSplitter(threads: threads)
        let done = ProgressCounter()
        // Each photo's features, or why it could not be read (worded on the worker: a hundred
        // thousand missing files took a tenth of a second to word on one thread).
        let found: [Result<CompactFeatures, UnreadablePhoto>] = splitter.map(photos.count, balanced: true) { k in
            defer { progress?(done.add(1), total) }
            guard let path = paths[photos[k]] else { return .failure(UnreadablePhoto(reason: "the record names no photo file")) }
            do {
                let photo = try photo(at: path)
                return .success(CompactFeatures(photo.features, thumbnail: photo.thumbnail))
            } catch {
                return .failure(UnreadablePhoto(reason: (error as? ReconstructionError).map { "\($0)" } ?? (error as? RecordsError)?.reason ?? error.localizedDescription))
            }
        }
        // slot[k]: where photo k's features are in `table`, or -1 where it could not be read.
        var slot = [Int32](repeating: -1, count: paths.count)
        var unreadable = [Int: String]()
        var compact: [CompactFeatures] = []
        for (k, result) in zip(photos, found) {
            switch result {
            case .success(let features):
                slot[k] = Int32(compact.count)
                compact.append(features)
            case .failure(let failure):
                unreadable[k] = failure.reason
            }
        }
        // Only pairs of two photos read are worth a thread; the others are nil at once (a
        // hundred thousand unreadable photos would otherwise cost a lock or three per pair).
        let judged = pairs.indices.filter { slot[pairs[$0].0] >= 0 && slot[pairs[$0].1] >= 0 }
        if judged.count < pairs.count { progress?(done.add(pairs.count - judged.count), total) }
        let table = compact, slots = slot
        let results: [Bool?] = splitter.map(judged.count, balanced: true) { j in
            defer { progress?(done.add(1), total) }
            let (a, b) = pairs[judged[j]]
            return verdict(table[Int(slots[a])], table[Int(slots[b])]).isDuplicate
        }
        var verdicts = [Bool?](repeating: nil, count: pairs.count)
        for (j, verdict) in zip(judged, results) { verdicts[j] = verdict }
        var features: [Int: CompactFeatures] = [:]
        for k in photos where slot[k] >= 0 { features[k] = table[Int(slot[k])] }
        return BatchResult(verdicts: verdicts, unreadable: unreadable, features: features)
    }

    /// The verdict on two photos whose features are already found; where the features cannot
    /// tell (too few keypoints to refute), their pixels are compared (`DenseComparison`).
    public func verdict(_ first: CompactFeatures, _ second: CompactFeatures) -> Verdict {
        var result = verdict(first.expanded(), second.expanded())
        if result.isDuplicate == nil, let a = first.thumbnail, let b = second.thumbnail {
            result.isDuplicate = DenseComparison.compare(a, b, isEdit: isEdit).isDuplicate
        }
        return result
    }
}

/// Why a photo could not be read, worded for the user.
struct UnreadablePhoto: Error {
    let reason: String
}

/// A photo's features held small while many photos wait for their pairs: descriptors as bytes
/// (COLMAP's quantisation, a quarter of the floats), expanded again for matching.
public struct CompactFeatures: Sendable {
    let imageWidth: Int, imageHeight: Int, workingWidth: Int, workingHeight: Int
    let keypoints: [Keypoint]
    let descriptors: [UInt8]
    /// For comparing pixels where the features cannot tell.
    let thumbnail: DenseThumbnail?

    init(_ features: Features, thumbnail: DenseThumbnail? = nil) {
        self.thumbnail = thumbnail
        imageWidth = features.imageWidth
        imageHeight = features.imageHeight
        workingWidth = features.workingWidth
        workingHeight = features.workingHeight
        keypoints = features.keypoints
        descriptors = features.quantizedDescriptors()
    }

    /// Unit-length float descriptors again (the rounding error is far below what matching sees).
    func expanded() -> Features {
        var floats = [Float](repeating: 0, count: descriptors.count)
        let length = Features.descriptorLength
        for row in 0 ..< keypoints.count {
            var norm: Float = 0
            for k in row * length ..< (row + 1) * length {
                let v = Float(descriptors[k])
                floats[k] = v
                norm += v * v
            }
            let scale = norm > 0 ? 1 / norm.squareRoot() : 0
            for k in row * length ..< (row + 1) * length { floats[k] *= scale }
        }
        return Features(imageWidth: imageWidth, imageHeight: imageHeight, workingWidth: workingWidth,
                        workingHeight: workingHeight, keypoints: keypoints, descriptors: floats)
    }
}
