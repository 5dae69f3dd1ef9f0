/// The result of a sparse reconstruction: the model, the photos it used, and those it left out.
public struct SparseReconstruction: Sendable {
    /// The photos that entered mapping, in input order; image `i` of the model is `used[i]`.
    public var used: [CaptureSource]
    /// Keypoints (pixels) of each used photo, as written to `images.txt`.
    public var keypoints: [[SIMD2<Double>]]
    public var mapping: MappingResult
    /// Photos that could not be used or registered, with the reason, in input order.
    public var skipped: [SkippedImage]
    /// Image pairs whose matches passed geometric verification.
    public var verifiedPairs: Int
    /// Photos whose features were kept to the garment's silhouette found automatically.
    public var automaticallyMasked: Int
    /// Wall-clock seconds spent in each stage.
    public var stageSeconds: [ReconstructionStage: Double]

    public init(used: [CaptureSource], keypoints: [[SIMD2<Double>]], mapping: MappingResult, skipped: [SkippedImage],
                verifiedPairs: Int, automaticallyMasked: Int, stageSeconds: [ReconstructionStage: Double]) {
        self.used = used
        self.keypoints = keypoints
        self.mapping = mapping
        self.skipped = skipped
        self.verifiedPairs = verifiedPairs
        self.automaticallyMasked = automaticallyMasked
        self.stageSeconds = stageSeconds
    }

    public var model: SparseModel { mapping.model }
    public var registeredCount: Int { mapping.model.registeredImages.count }

    /// The model as COLMAP text files.
    public var colmapText: COLMAPTextModel {
        COLMAPTextModel(model: mapping.model, keypoints: keypoints, meanErrors: mapping.meanErrors)
    }
}
