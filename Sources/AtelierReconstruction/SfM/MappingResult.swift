/// The outcome of incremental mapping: the model, and why each image left out was left out.
public struct MappingResult: Sendable {
    public var model: SparseModel
    /// Images not registered, with the reason in words ("only 12 of 80 points agree on a pose").
    public var unregistered: [(image: Int, reason: String)]
    /// Per point id, its mean reprojection error in pixels (nil for removed points).
    public var meanErrors: [Double?]
    /// Mean reprojection error over all observations, pixels.
    public var meanReprojectionErrorPixels: Double
    /// Mean number of images that see each point.
    public var meanTrackLength: Double

    public init(model: SparseModel, unregistered: [(image: Int, reason: String)], meanErrors: [Double?],
                meanReprojectionErrorPixels: Double, meanTrackLength: Double) {
        self.model = model
        self.unregistered = unregistered
        self.meanErrors = meanErrors
        self.meanReprojectionErrorPixels = meanReprojectionErrorPixels
        self.meanTrackLength = meanTrackLength
    }
}
