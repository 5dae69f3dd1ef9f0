/// How to render one view.
public struct RenderSettings: Sendable, Equatable {
    /// Samples per pixel along each axis: 3 takes 9 samples per pixel and averages them (a box
    /// filter in linear light), which anti-aliases silhouettes and texture alike.
    public var supersampling: Int
    public var sensor: SensorModel
    /// Seed of the sensor noise; each view mixes in its own index.
    public var noiseSeed: UInt64
    /// Render bands of rows on both cores. The bytes are the same either way: bands are fixed
    /// by the image size, not by the thread count, and no sample depends on another band.
    public var concurrent: Bool

    public init(supersampling: Int = 3, sensor: SensorModel = .phone, noiseSeed: UInt64 = 0, concurrent: Bool = true) {
        self.supersampling = supersampling
        self.sensor = sensor
        self.noiseSeed = noiseSeed
        self.concurrent = concurrent
    }
}

/// Which mesh triangle each supersample sees and where in it: the renderer's own record of
/// visibility, for tests that check the pictures against the geometry to a fraction of a pixel.
///
/// Sample (i, j) is centred at pixel `((i + 0.5) / s, (j + 0.5) / s)` for supersampling `s`.
public struct VisibilityBuffer: Sendable {
    /// Size in samples: the image size times `supersampling`.
    public let width: Int
    public let height: Int
    public let supersampling: Int
    /// Index into `mesh.triangles`, or −1 where the sample sees the turntable, floor or backdrop.
    public var triangles: [Int32]
    /// Perspective-correct barycentric coordinates of the sample's surface point with respect to
    /// the triangle's second and third vertices (the first's is `1 − x − y`).
    public var barycentrics: [SIMD2<Float>]
}
