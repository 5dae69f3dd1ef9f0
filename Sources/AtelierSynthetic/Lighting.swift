import AtelierGeometry
/// Fixed studio lighting: ambient light plus a key and a fill light, both directional, on
/// Lambertian (matte) surfaces. Nothing depends on where the camera is, so a point of the cloth
/// has the same colour in every view, as structure from motion assumes of a matte fabric.
public struct Lighting: Sendable, Equatable {
    /// A light infinitely far away.
    public struct DirectionalLight: Sendable, Equatable {
        /// Unit vector from the surface towards the light, in world coordinates.
        public var direction: SIMD3<Float>
        /// Irradiance on a surface facing the light, relative to albedo 1.
        public var intensity: Float

        public init(direction: SIMD3<Float>, intensity: Float) {
            self.direction = direction.normalized
            self.intensity = intensity
        }
    }

    /// Light arriving from everywhere, scaled by the surface's occlusion.
    public var ambient: Float
    public var key: DirectionalLight
    public var fill: DirectionalLight
    /// How much occlusion also dims the direct lights, 0–1 (deep folds are shaded from the
    /// lamps as well as from the room).
    public var occlusionOnDirect: Float

    public init(ambient: Float, key: DirectionalLight, fill: DirectionalLight, occlusionOnDirect: Float = 0.5) {
        self.ambient = ambient
        self.key = key
        self.fill = fill
        self.occlusionOnDirect = occlusionOnDirect
    }

    /// A softbox high at front left and a weaker fill low at back right.
    public static let studio = Lighting(ambient: 0.36,
                                        key: DirectionalLight(direction: [-0.5, 0.8, 0.45], intensity: 0.62),
                                        fill: DirectionalLight(direction: [0.6, 0.35, -0.5], intensity: 0.22))

    /// Ambient light of 1 and nothing else: every surface shows its texture's colour unchanged.
    public static let flat = Lighting(ambient: 1, key: DirectionalLight(direction: [0, 1, 0], intensity: 0),
                                      fill: DirectionalLight(direction: [0, 1, 0], intensity: 0), occlusionOnDirect: 0)

    /// The light reaching a surface with unit normal `normal` and ambient occlusion `occlusion`:
    /// `ambient × occlusion + (Σ intensity × max(0, n·l)) × (1 − occlusionOnDirect × (1 − occlusion))`.
    @inline(__always)
    public func irradiance(normal: SIMD3<Float>, occlusion: Float) -> Float {
        let direct = key.intensity * max(0, normal.dot(key.direction)) + fill.intensity * max(0, normal.dot(fill.direction))
        return ambient * occlusion + direct * (1 - occlusionOnDirect * (1 - occlusion))
    }
}
