/// The stages of reconstruction. Pre-processing, image alignment, point cloud generation, mesh
/// generation, texture mapping and optimisation are named as Apple's Object Capture reports them; Object Capture counts matching as part of alignment, but here it is
/// the longest step, so it has its own bar.
public enum ReconstructionStage: String, Sendable, CaseIterable {
    /// Reading the photos and finding their features.
    case preProcessing = "pre-processing"
    /// Matching features between photos and verifying the matches' geometry.
    case featureMatching = "feature matching"
    /// Recovering camera poses and the sparse point cloud.
    case imageAlignment = "image alignment"
    /// Depth maps by multi-view stereo, fused into the dense point cloud.
    case pointCloudGeneration = "point cloud generation"
    /// The closed surface from the depth maps.
    case meshGeneration = "mesh generation"
    /// Simplification to the detail level's triangle budget.
    case optimisation = "optimisation"
    /// The texture atlas from the photos.
    case textureMapping = "texture mapping"
}

/// How far reconstruction has got: the stage and the fraction of it done, with a short note
/// ("img_0003.jpg", "12/24 images registered").
public struct ReconstructionProgress: Sendable {
    public var stage: ReconstructionStage
    /// In [0, 1].
    public var fraction: Double
    public var detail: String

    public init(stage: ReconstructionStage, fraction: Double, detail: String) {
        self.stage = stage
        self.fraction = fraction
        self.detail = detail
    }
}
