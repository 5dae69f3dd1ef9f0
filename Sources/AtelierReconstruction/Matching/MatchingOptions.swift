/// What makes a nearest neighbour a match. The defaults are COLMAP's for SIFT.
public struct MatchingOptions: Sendable, Equatable {
    /// Lowe's ratio test: the nearest neighbour's angular distance must be below this fraction of
    /// the second nearest's (0.8 in COLMAP and Lowe 2004).
    public var maxRatio: Float
    /// The largest angle, in radians, between two matching unit descriptors (COLMAP: 0.7).
    public var maxDistance: Float
    /// Keep only mutual nearest neighbours: the second image's descriptor must also have the
    /// first's as its own nearest.
    public var crossCheck: Bool
    /// Threads for matching many pairs at once (each pair on one thread); 0 means every core.
    public var threads: Int

    public init(maxRatio: Float = 0.8, maxDistance: Float = 0.7, crossCheck: Bool = true, threads: Int = 0) {
        self.maxRatio = maxRatio
        self.maxDistance = maxDistance
        self.crossCheck = crossCheck
        self.threads = threads
    }

    /// Throws when a value is out of range.
    public func validate() throws(ReconstructionError) {
        guard maxRatio > 0, maxRatio <= 1 else { throw .invalidSetting(name: "maxRatio", reason: "must be in (0, 1]") }
        guard maxDistance > 0, maxDistance <= .pi else { throw .invalidSetting(name: "maxDistance", reason: "must be in (0, π]") }
        guard threads >= 0 else { throw .invalidSetting(name: "threads", reason: "must not be negative") }
    }
}
