/// A putative correspondence: keypoint `index1` of the first image and keypoint `index2` of the
/// second. 32-bit indices: an image holds at most a few tens of thousands of features, and the
/// match lists of every pair of a capture are kept in memory at once.
public struct FeatureMatch: Sendable, Equatable, Hashable {
    public var index1: Int32
    public var index2: Int32

    public init(_ index1: Int, _ index2: Int) {
        self.index1 = Int32(index1)
        self.index2 = Int32(index2)
    }
}
