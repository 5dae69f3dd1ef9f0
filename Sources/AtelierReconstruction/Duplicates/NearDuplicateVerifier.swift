import AtelierImaging
import AtelierRecords
import Foundation

/// Decides whether two photos are the same picture — re-encoded, resized, brightened, cropped,
/// re-framed or turned a little — by their local features, where a perceptual hash cannot.
///
/// A crop of 5 % off each side moves a 64-bit pHash by about ten bits, as far as two different
/// photos of one garment on one backdrop can be, so no hash distance separates the two. Local
/// features can: SIFT keypoints of the two photos are matched (ratio test, cross-checked) and
/// the matches must agree on one affine map from the first photo onto the second (RANSAC), with
/// the map one an edit can make: no mirror, at most `maxRotationDegrees` of turn, a scale
/// within `scaleRange` and nearly the same in both directions, and the agreeing keypoints
/// spread over a fair part of the photo rather than one shared logo. Two different shots of a
/// garment, even from one tripod, move their keypoints by parallax and pose, and fail.
public struct NearDuplicateVerifier: Sendable {
    /// The thresholds a pair must pass. They were first set on `benchmarks/dup_eval.py`'s
    /// rendered garments; the fallback for photos with few keypoints and the looser inlier and
    /// coverage limits came after reading where the photograph set of `dup_crops.py` failed
    /// (benchmarks/RESULTS.md says so beside its figures).
    public struct Settings: Sendable, Equatable {
        /// Features are found on the photo resized so its longer side is this many pixels, up
        /// or down: a copy at half size then yields as many features as its original.
        public var workingSide = 512
        public var maxFeatures = 500
        /// The DoG peak threshold (`FeatureSensitivity.high`'s): plain fabric still has features.
        public var peakThreshold: Float = 0.008 / 3
        /// Matches the affine map must explain.
        public var minInliers = 10
        /// …and this share of all matches.
        public var minInlierRatio = 0.5
        /// With fewer keypoints than this in either photo (a plain wall, a blurred shot), a
        /// failed check says nothing: the verdict is "cannot tell", and the pixels
        /// (`DenseComparison`) or else the hash decide.
        public var minFeaturesToRefute = 100
        /// An inlier lies within this share of the second photo's longer side of where the map
        /// puts it.
        public var maxResidual = 0.012
        public var maxRotationDegrees = 20.0
        /// The map's scale, the photos' sizes taken out (a crop of 10 % is 1.11, half size 1).
        public var scaleRange: ClosedRange<Double> = 0.5 ... 2.5
        /// The larger over the smaller stretch: a crop resized back to another aspect.
        public var maxAnisotropy = 1.35
        /// The inliers' bounding box covers at least this share of the first photo.
        public var minCoverage = 0.05

        public init() {}
    }

    /// What the features said about one pair.
    public struct Verdict: Sendable, Equatable {
        /// True or false, or nil when the photos have too few features to refute it.
        public var isDuplicate: Bool?
        public var matches: Int
        public var inliers: Int
        /// The affine map the inliers agree on (nil when RANSAC found none).
        public var map: AffineTransform2D?
        /// The share of the first photo the inliers' bounding box covers.
        public var coverage: Double
    }

    public let settings: Settings
    private let extractor: FeatureExtractor
    private let matcher: DescriptorMatcher
    /// Photo files larger than this are not read (a 100 MP JPEG is about 60 MB).
    public static let maxFileBytes = 256 << 20

    public init(settings: Settings = Settings()) throws(ReconstructionError) {
        self.settings = settings
        // One thread each: the caller runs photos and pairs in parallel, which scales better.
        // No upsampled first octave: the finest features are the first an edit destroys
        // (re-encoding, resizing), and they would cost most of the time. (Tried: upsampling
        // photos with few features gained 1 % of F1 for twice the time.)
        extractor = try FeatureExtractor(settings: FeatureSettings(maxImageSide: settings.workingSide, maxFeatures: settings.maxFeatures,
                                                                   upsampleFirstOctave: false, peakThreshold: settings.peakThreshold,
                                                                   threads: 1))
        matcher = try DescriptorMatcher(options: MatchingOptions(maxRatio: 0.8, maxDistance: 0.7, crossCheck: true, threads: 1))
    }

    /// The features of the photo at `path` (JPEG or PNG, EXIF orientation applied).
    public func features(ofPhotoAt path: String) throws -> Features {
        try photo(at: path).features
    }

    /// The features of the photo at `path` and its thumbnail for `DenseComparison`.
    public func photo(at path: String) throws -> (features: Features, thumbnail: DenseThumbnail) {
        // A regular file only: a FIFO or a device named by a record must not hang the search.
        guard let data = try RegularFile.read(path, limit: Self.maxFileBytes) else {
            throw ReconstructionError.unreadableImage(.corrupt("the file is over \(Self.maxFileBytes >> 20) MiB"))
        }
        guard !data.isEmpty else { throw ReconstructionError.unreadableImage(.corrupt("the file is empty")) }
        let side = settings.workingSide
        let image = try data.withUnsafeBytes { bytes throws(ReconstructionError) -> Image in
            do throws(ImagingError) {
                let header = JPEG.looksLike(bytes) ? try JPEG.header(bytes) : nil
                // Decode a large JPEG at a reduced DCT scale that keeps at least `side` pixels.
                let minimumSide = header.map { max(1, side * min($0.width, $0.height) / max(1, max($0.width, $0.height))) }
                return try ImageDecoder.decode(bytes, channels: 1, minimumSide: minimumSide).image
            } catch {
                throw .unreadableImage(error)
            }
        }
        let longer = max(image.width, image.height)
        guard longer > 0 else { throw ReconstructionError.unreadableImage(.corrupt("the image is empty")) }
        let width = max(1, (image.width * side + longer / 2) / longer), height = max(1, (image.height * side + longer / 2) / longer)
        let working = longer == side ? image : image.resized(width: width, height: height, filter: .bilinear)
        return (try extractor.extract(from: working), DenseThumbnail(working))
    }

    /// Whether `first` and `second` show the same picture.
    public func verdict(_ first: Features, _ second: Features) -> Verdict {
        let matches = matcher.match(first, second)
        let refutable = min(first.count, second.count) >= settings.minFeaturesToRefute
        var verdict = Verdict(isDuplicate: refutable ? false : nil, matches: matches.count, inliers: 0, map: nil, coverage: 0)
        guard matches.count >= settings.minInliers else { return verdict }
        // Each photo's pixels over its longer side, so a resized copy maps at scale 1.
        let side1 = Double(max(first.imageWidth, first.imageHeight)), side2 = Double(max(second.imageWidth, second.imageHeight))
        let points1 = matches.map { m in
            let k = first.keypoints[Int(m.index1)]
            return SIMD2(Double(k.x), Double(k.y)) / side1
        }
        let points2 = matches.map { m in
            let k = second.keypoints[Int(m.index2)]
            return SIMD2(Double(k.x), Double(k.y)) / side2
        }
        let options = RANSACOptions(maxResidual: settings.maxResidual, confidence: 0.999, minIterations: 20, maxIterations: 2000,
                                    localOptimisationRounds: 3, minInlierRatio: settings.minInlierRatio)
        guard let fit = RANSAC.estimate(AffineProblem(points1: points1, points2: points2), options: options) else { return verdict }
        verdict.inliers = fit.inliers.count
        verdict.map = fit.model
        verdict.coverage = coverage(of: fit.inliers.map { points1[$0] }, width: Double(first.imageWidth) / side1,
                                    height: Double(first.imageHeight) / side1)
        let confirmed = fit.inliers.count >= settings.minInliers
            && Double(fit.inliers.count) >= settings.minInlierRatio * Double(matches.count)
            && isEdit(fit.model)
            && verdict.coverage >= settings.minCoverage
        verdict.isDuplicate = confirmed ? true : verdict.isDuplicate
        return verdict
    }

    /// Whether an edit could have made `map`: no mirror, a small turn, an even scale in range.
    func isEdit(_ map: AffineTransform2D) -> Bool {
        guard map.determinant > 0 else { return false }
        let (larger, smaller) = map.singularValues
        guard smaller > 0, larger / smaller <= settings.maxAnisotropy else { return false }
        let scale = (larger * smaller).squareRoot()
        return settings.scaleRange.contains(scale) && abs(map.rotationAngle) <= settings.maxRotationDegrees * .pi / 180
    }

    /// The share of a `width × height` photo that the points' bounding box covers.
    func coverage(of points: [SIMD2<Double>], width: Double, height: Double) -> Double {
        guard let first = points.first, width > 0, height > 0 else { return 0 }
        var low = first, high = first
        for p in points {
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        return (high.x - low.x) * (high.y - low.y) / (width * height)
    }
}
