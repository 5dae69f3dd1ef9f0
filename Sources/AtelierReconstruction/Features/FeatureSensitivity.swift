/// How eagerly the detector keeps weak features: `--feature-sensitivity`.
///
/// `.normal` uses COLMAP's SIFT defaults: DoG peak threshold 0.02 / S (0.0067 for S = 3 scales
/// per octave, on intensities in [0, 1]) and at most 8,192 features. Lowe's paper uses 0.03 and
/// OpenCV 0.04 / S; COLMAP's lower value suits multi-view matching, where more, weaker features
/// pay off once geometry filters the matches.
///
/// `.high` is for low-texture subjects (plain fabric, a matt jumper): the threshold drops to
/// 0.008 / S (0.0027, still about three times the DoG of the sensor noise of a phone photo at
/// the finest scale) and the cap rises to 16,384, so that a plain weave yields enough
/// features to register every view. The edge threshold stays at r = 10 either way: the extra
/// features must still be blobs and corners, not points along edges.
public enum FeatureSensitivity: String, Sendable, CaseIterable {
    case normal
    case high

    /// The DoG peak threshold for `scalesPerOctave` scales per octave.
    public func peakThreshold(scalesPerOctave: Int) -> Float {
        switch self {
        case .normal: return 0.02 / Float(scalesPerOctave)
        case .high: return 0.008 / Float(scalesPerOctave)
        }
    }

    /// The default cap on features per image.
    public var maxFeatures: Int {
        switch self {
        case .normal: return 8192
        case .high: return 16384
        }
    }
}
