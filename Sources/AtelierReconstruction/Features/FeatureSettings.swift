/// What the feature extractor does; the defaults are COLMAP's SIFT defaults where it has them.
public struct FeatureSettings: Sendable, Equatable {
    /// `.normal` or `.high` (more, weaker features for low-texture subjects): it sets the peak
    /// threshold and the feature cap unless they are given explicitly.
    public var sensitivity: FeatureSensitivity
    /// The longer side, in pixels, of the image features are found on. Larger photos are
    /// decoded at a reduced JPEG scale and resized down to it; keypoints are still reported in
    /// the original image's pixels. 1600 keeps a phone photo's useful detail for structure from
    /// motion at a sixth of its pixels.
    public var maxImageSide: Int
    /// At most this many keypoints (nil: the sensitivity's cap). When there are more, the
    /// strongest are kept, spread over the image (see `FeatureSelection`).
    public var maxFeatures: Int?
    /// Start the scale space at octave −1 (the image upsampled by two), as Lowe, VLFeat and
    /// COLMAP do: it finds the finest features, roughly doubling their number.
    public var upsampleFirstOctave: Bool
    /// Scales per octave, S (3).
    public var scalesPerOctave: Int
    /// At most this many octaves (nil: as many as fit, down to 16 samples on the shorter side).
    public var maxOctaves: Int?
    /// The least |DoG| of a kept extremum, on intensities in [0, 1] (nil: the sensitivity's).
    public var peakThreshold: Float?
    /// Lowe's r: the largest ratio of principal curvatures kept; points on edges exceed it (10).
    public var edgeThreshold: Float
    /// Orientations kept per detection (COLMAP: 2); each gives a keypoint.
    public var maxOrientations: Int
    /// Worker threads; 0 for one per core. The output does not depend on it.
    public var threads: Int

    public init(sensitivity: FeatureSensitivity = .normal, maxImageSide: Int = 1600, maxFeatures: Int? = nil,
                upsampleFirstOctave: Bool = true, scalesPerOctave: Int = 3, maxOctaves: Int? = nil,
                peakThreshold: Float? = nil, edgeThreshold: Float = 10, maxOrientations: Int = 2, threads: Int = 0) {
        self.sensitivity = sensitivity
        self.maxImageSide = maxImageSide
        self.maxFeatures = maxFeatures
        self.upsampleFirstOctave = upsampleFirstOctave
        self.scalesPerOctave = scalesPerOctave
        self.maxOctaves = maxOctaves
        self.peakThreshold = peakThreshold
        self.edgeThreshold = edgeThreshold
        self.maxOrientations = maxOrientations
        self.threads = threads
    }

    /// The peak threshold in force.
    public var resolvedPeakThreshold: Float { peakThreshold ?? sensitivity.peakThreshold(scalesPerOctave: scalesPerOctave) }

    /// The feature cap in force.
    public var resolvedMaxFeatures: Int { maxFeatures ?? sensitivity.maxFeatures }

    /// Checks every setting is in range, naming the first that is not.
    public func validate() throws(ReconstructionError) {
        func require(_ ok: Bool, _ name: String, _ reason: String) throws(ReconstructionError) {
            if !ok { throw .invalidSetting(name: name, reason: reason) }
        }
        try require(maxImageSide >= 16, "maxImageSide", "must be at least 16 pixels, got \(maxImageSide)")
        try require(resolvedMaxFeatures >= 1, "maxFeatures", "must be at least 1, got \(resolvedMaxFeatures)")
        try require((1 ... 10).contains(scalesPerOctave), "scalesPerOctave", "must be 1 to 10, got \(scalesPerOctave)")
        try require((maxOctaves ?? 1) >= 1, "maxOctaves", "must be at least 1, got \(maxOctaves ?? 0)")
        let threshold = resolvedPeakThreshold
        try require(threshold.isFinite && threshold > 0, "peakThreshold", "must be a positive number, got \(threshold)")
        try require(edgeThreshold.isFinite && edgeThreshold >= 1, "edgeThreshold", "must be at least 1, got \(edgeThreshold)")
        try require(maxOrientations >= 1, "maxOrientations", "must be at least 1, got \(maxOrientations)")
        try require(threads >= 0, "threads", "must be 0 (one per core) or more, got \(threads)")
    }
}
