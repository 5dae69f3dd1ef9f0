/// Everything that steers a sparse reconstruction.
public struct ReconstructionOptions: Sendable {
    /// How matching pairs are chosen.
    public enum PairSelection: Sendable, Equatable {
        /// Exhaustive up to `automaticExhaustiveLimit` photos, sequential beyond.
        case automatic
        case exhaustive
        /// Neighbours in capture order (the order given), wrapping round from the last photo to
        /// the first as an orbit does.
        case sequential(overlap: Int)
    }

    public var features = FeatureSettings()
    public var matching = MatchingOptions()
    public var pairs = PairSelection.automatic
    public var twoView = TwoViewGeometryOptions()
    public var mapper = MapperOptions()
    /// Keep features off a plain backdrop: photos without a mask of their own get the garment's
    /// silhouette (`SubjectSilhouette`) as their mask; a photo without a plain backdrop is used whole.
    public var automaticMasks = false
    /// Photos with fewer features than this are skipped as blank or uniform.
    public var minFeatures = 100
    /// Photos with this many or fewer are matched exhaustively under `.automatic`.
    public var automaticExhaustiveLimit = 60
    /// Neighbours each way for sequential matching under `.automatic`.
    public var automaticOverlap = 10
    /// The 35 mm focal length assumed for photos without one in their EXIF.
    public var defaultFocalLength35mm = CameraIntrinsics.defaultFocalLength35mm

    public init() {}

    /// The concrete pairs for `count` photos.
    func imagePairs(count: Int) -> ImagePairs {
        switch pairs {
        case .exhaustive: return .exhaustive
        case .sequential(let overlap): return .sequential(overlap: overlap, closedLoop: true)
        case .automatic:
            return count <= automaticExhaustiveLimit ? .exhaustive : .sequential(overlap: automaticOverlap, closedLoop: true)
        }
    }
}
