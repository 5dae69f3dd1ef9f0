import AtelierImaging

/// Everything that decides a synthetic capture: a preset and the settings that override it.
/// The same spec (seed included) always gives the same bytes.
public struct CaptureSpec: Sendable {
    public var preset: CapturePreset
    public var seed: UInt64 = 1
    public var width: Int = 1024
    public var height: Int = 768
    /// Total number of views; nil for the preset's own.
    public var views: Int?
    /// 35 mm equivalent focal length, whole millimetres (so EXIF can state it exactly).
    public var focalLength35mm: Int = 35
    public var jpegQuality: Int = 92
    public var supersampling: Int = 3
    /// Side of the garment's texture in texels, and of the turntable's.
    public var textureSize: Int = 2048
    public var turntableTextureSize: Int = 1024
    public var ringRadiusMetres: Double = CapturePreset.ringRadiusMetres
    /// The preset's surface unless set; `photoTexture` wins over both.
    public var surface: SurfaceKind?
    /// An image to print on the garment instead of a generated texture.
    public var photoTexture: Image?
    public var garment = DrapedGarment()
    public var lighting = Lighting.studio
    public var sensor = SensorModel.phone
    public var jitter = CameraJitter.handheld

    public init(preset: CapturePreset) { self.preset = preset }

    /// The surface that will be drawn.
    public var resolvedSurface: SurfaceKind { photoTexture != nil ? .photo : surface ?? preset.surface }

    /// The camera rings: the preset's, with this spec's view count and radius.
    public var rings: [CameraRing] { preset.rings(views: views, radiusMetres: ringRadiusMetres) }

    /// Checks every setting is in range, naming the first that is not as its option reads.
    public func validate() throws(SyntheticError) {
        func require(_ ok: Bool, _ name: String, _ reason: String) throws(SyntheticError) {
            if !ok { throw .invalidParameter(name: name, reason: reason) }
        }
        try require((16 ... 8192).contains(width), "--width", "must be 16 to 8192 pixels, got \(width)")
        try require((16 ... 8192).contains(height), "--height", "must be 16 to 8192 pixels, got \(height)")
        try require((1 ... 100).contains(jpegQuality), "--quality", "must be 1 to 100, got \(jpegQuality)")
        try require((1 ... 8).contains(supersampling), "--supersampling", "must be 1 to 8, got \(supersampling)")
        try require((8 ... 300).contains(focalLength35mm), "--focal35", "must be 8 to 300 mm, got \(focalLength35mm)")
        try require((16 ... 8192).contains(textureSize), "--texture-size", "must be 16 to 8192 texels, got \(textureSize)")
        try require((16 ... 8192).contains(turntableTextureSize), "turntable texture size", "must be 16 to 8192 texels")
        try require(ringRadiusMetres >= 0.8 && ringRadiusMetres <= 50, "--radius", "must be 0.8 to 50 metres (outside the garment), got \(ringRadiusMetres)")
        if let views {
            let least = 2 * preset.elevationsDegrees.count
            try require((least ... 1000).contains(views), "--views", "must be \(least) to 1000 for \(preset.rawValue), got \(views)")
        }
        try garment.validate()
    }
}
