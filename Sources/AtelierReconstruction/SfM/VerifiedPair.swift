import AtelierGeometry

/// The matches between two images that survived geometric verification, and what the
/// verification learnt about the pair.
public struct VerifiedPair: Sendable {
    public var image1: Int
    public var image2: Int
    /// Inlier matches, keypoint indices into each image's features.
    public var matches: [FeatureMatch]
    public var geometry: TwoViewGeometry

    public init(image1: Int, image2: Int, matches: [FeatureMatch], geometry: TwoViewGeometry) {
        self.image1 = image1
        self.image2 = image2
        self.matches = matches
        self.geometry = geometry
    }
}
