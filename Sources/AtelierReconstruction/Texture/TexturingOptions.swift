/// How `MeshTexturer` lays out and levels the texture. The defaults suit a phone capture of a
/// garment: a 2048-texel atlas, two texels of padding so mipmaps do not bleed.
public struct TexturingOptions: Sendable {
    /// The side of the square atlas in texels, 256…8192.
    public var textureSize: Int = 2048
    /// Empty texels kept around each chart and filled with its border colours, 0…64.
    public var paddingPixels: Int = 2
    /// How much neighbouring faces prefer the same photo (the Potts weight, in units of one
    /// face's whole data term): larger gives fewer, larger charts at some cost in sharpness.
    public var smoothness: Double = 0.5
    /// How much nearer, as a fraction of depth, another surface must be to hide a face: absorbs
    /// depth-buffer quantisation without letting a fold see through the layer above it.
    public var occlusionTolerance: Double = 0.005
    /// Whether to even out exposure between photos (a gain per photo and channel).
    public var levelExposure: Bool = true
    /// Whether to blend colour steps along chart seams.
    public var levelSeams: Bool = true

    public init() {}
}

/// What texturing did, for logs and for judging a capture: how fragmented the atlas is, how much
/// of the surface no photo saw, how much of the atlas holds texels.
public struct TexturingReport: Sendable, Equatable {
    /// Charts cut from photos (faces no photo saw are not counted).
    public var charts: Int
    /// Faces no photo saw unoccluded; they get colours spread from their seen neighbours.
    public var facesWithoutView: Int
    /// The fraction of atlas texels covered by faces, before padding.
    public var atlasFill: Double
    /// Texels per source pixel, the same for every chart (at most 1).
    public var scale: Double

    public init(charts: Int, facesWithoutView: Int, atlasFill: Double, scale: Double) {
        self.charts = charts
        self.facesWithoutView = facesWithoutView
        self.atlasFill = atlasFill
        self.scale = scale
    }
}
