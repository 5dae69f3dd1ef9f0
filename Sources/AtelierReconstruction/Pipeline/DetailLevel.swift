/// How much detail a reconstruction keeps, named and sized as Apple's Object Capture names its
/// levels: each caps the triangles and sets the texture's side, and sets how finely the photos
/// and the volume are sampled to get there. `sparse` stops after camera alignment.
public enum DetailLevel: String, Sendable, CaseIterable {
    case sparse, preview, reduced, medium, full, raw

    /// The triangle budget (`raw`: unsimplified).
    public var maxTriangles: Int? {
        switch self {
        case .sparse: return 0
        case .preview: return 24_000
        case .reduced: return 49_000
        case .medium: return 99_000
        case .full: return 249_000
        case .raw: return nil
        }
    }

    /// The texture atlas's side in pixels.
    public var textureSize: Int {
        switch self {
        case .sparse: return 0
        case .preview: return 1024
        case .reduced: return 2048
        case .medium: return 4096
        case .full, .raw: return 8192
        }
    }

    /// Longest side of the photos in multi-view stereo (never more than the photos have). `full`
    /// shares `medium`'s: on two cores, 1024 pixels would put 24 photos past five minutes, and
    /// the finer volume and budget are what `full` adds.
    public var stereoSide: Int {
        switch self {
        case .sparse, .preview: return 512
        case .reduced: return 640
        case .medium, .full: return 768
        case .raw: return 1024
        }
    }

    /// Samples of the signed-distance volume along the object's longest side.
    public var volumeResolution: Int {
        switch self {
        case .sparse, .preview: return 128
        case .reduced: return 160
        case .medium: return 200
        case .full, .raw: return 256
        }
    }
}
