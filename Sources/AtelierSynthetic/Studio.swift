/// The room around the garment: a seamless backdrop (a smooth gradient, light grey at the horizon
/// to a little darker overhead, at infinite distance), a floor of the same grey that fades into it
/// with distance so there is no horizon line, and a textured turntable disc the garment stands on.
///
/// The backdrop and floor carry no texture at all, so they give a feature detector nothing, as a
/// studio sweep should; only the garment and the turntable do. The ground is the plane y = 0.
public struct Studio: Sendable {
    /// Linear colours of the backdrop at the horizon and straight up.
    public var horizonColour: SIMD3<Float>
    public var zenithColour: SIMD3<Float>
    /// Linear albedo of the floor around the turntable.
    public var floorAlbedo: SIMD3<Float>
    /// Distances from the axis over which the floor fades into the horizon colour.
    public var floorFadeStartMetres: Float
    public var floorFadeEndMetres: Float
    /// The turntable disc, centred on the axis, and its surface texture (covering the square
    /// `[−radius, radius]²`, see `TurntableSurface`).
    public var turntableRadiusMetres: Float
    public var turntable: Texture

    public init(turntable: Texture, turntableRadiusMetres: Float, horizonColour: SIMD3<Float> = [0.6, 0.6, 0.61],
                zenithColour: SIMD3<Float> = [0.44, 0.45, 0.47], floorAlbedo: SIMD3<Float> = [0.58, 0.58, 0.59],
                floorFadeStartMetres: Float = 0.9, floorFadeEndMetres: Float = 5) {
        self.turntable = turntable
        self.turntableRadiusMetres = turntableRadiusMetres
        self.horizonColour = horizonColour
        self.zenithColour = zenithColour
        self.floorAlbedo = floorAlbedo
        self.floorFadeStartMetres = floorFadeStartMetres
        self.floorFadeEndMetres = floorFadeEndMetres
    }
}
