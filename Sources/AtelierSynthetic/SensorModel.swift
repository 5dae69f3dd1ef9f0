/// What the camera adds on top of the scene: vignetting (darker corners) and sensor noise.
/// Both are mild, like a phone in good light; the noise is seeded per view and pixel, so it is
/// repeatable but differs between views, as real noise does.
public struct SensorModel: Sendable, Equatable {
    /// Light lost in the corners, as a fraction: brightness falls as `1 − vignetting × r²`, with
    /// r = 1 at the corners.
    public var vignetting: Float
    /// Standard deviation of the noise, in 8-bit levels.
    public var noiseLevels: Float

    public init(vignetting: Float, noiseLevels: Float) {
        self.vignetting = vignetting
        self.noiseLevels = noiseLevels
    }

    /// 12% vignetting and noise of 1.2 levels.
    public static let phone = SensorModel(vignetting: 0.12, noiseLevels: 1.2)
    /// No vignetting, no noise: the picture is the scene.
    public static let ideal = SensorModel(vignetting: 0, noiseLevels: 0)
}
