/// A per-pixel depth and normal estimate for one view, as multi-view stereo leaves it: `depth` is
/// the distance along the optical axis (0 where there is no estimate), `normal` the surface
/// normal in the camera's frame (facing the camera), `cost` the matching cost (1 − NCC, 0 best).
public struct DepthMap: Sendable {
    public let width: Int
    public let height: Int
    public var depth: [Float]
    public var normal: [SIMD3<Float>]
    public var cost: [Float]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        depth = [Float](repeating: 0, count: width * height)
        normal = [SIMD3<Float>](repeating: SIMD3(0, 0, -1), count: width * height)
        cost = [Float](repeating: 2, count: width * height)
    }

    /// Pixels with an estimate.
    public var validCount: Int { depth.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }
}
