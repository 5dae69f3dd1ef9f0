import AtelierRecords
import AtelierImaging

/// What can go wrong in reconstruction: the photos, the settings, a saved model, bundle
/// adjustment's input and texturing. The caller adds which file or view it was.
///
/// One enum for the library, so that the command line maps it to a message and an exit code in
/// one place (`ReconstructionExitCodes.swift`). It lives at the module's root, below every
/// folder (docs/reconstruction-layout.md), so its cases carry plain values, never a folder's
/// types.
public enum ReconstructionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The image could not be decoded: not a JPEG or PNG, damaged, or larger than the pixel
    /// limit. Carries the decoder's own error.
    case unreadableImage(ImagingError)
    /// The image is too small to find features in: the scale space needs at least
    /// `minimumSide` pixels on the shorter side.
    case imageTooSmall(width: Int, height: Int, minimumSide: Int)
    /// A setting is out of range. `name` is the setting's name, `reason` says what it must be.
    case invalidSetting(name: String, reason: String)
    /// A feature mask that cannot be used: its buffer does not match its size, or it is empty.
    case invalidMask(String)
    /// Fewer than three photos could be used; `skipped` says why for each photo left out.
    case notEnoughImages(usable: Int, skipped: [SkippedImage])
    /// No two photos could be put in one model; `reasons` says why for each photo.
    case nothingRegistered(reasons: [SkippedImage])
    /// Multi-view stereo found too little agreement between the photos to build a surface.
    case noSurface(points: Int)
    /// A saved model (COLMAP text, a checkpoint) that cannot be read back; says where.
    case invalidModel(String)
    /// The texture could not be made as part of a reconstruction; carries the words of the
    /// texturing case (`noPhotosToTexture` … `atlasTooSmall`) that stopped it.
    case texturingFailed(String)
    /// A checkpoint file could not be saved: `reason` is the system's, `status` the exit code
    /// its failure has (a file that cannot be made, or an I/O error).
    case unwritableCheckpoint(directory: String, file: String, reason: String, status: Sysexit)

    // MARK: Bundle adjustment

    /// A bundle adjustment problem whose arrays disagree (an image of a camera that does not
    /// exist, an observation of a missing point); the adjuster reports it as a failed
    /// termination with these words rather than throwing.
    case inconsistentBundleAdjustmentProblem(String)

    // MARK: Texturing (`MeshTexturer`)

    /// No photos were given to texture from.
    case noPhotosToTexture
    /// The mesh has no triangles (or no vertices).
    case emptyMesh
    /// The mesh's arrays disagree (`TexturedMesh.inconsistency` says how).
    case inconsistentMesh(String)
    /// The atlas could not be encoded as PNG; carries the encoder's message.
    case textureEncoding(String)
    /// Photo `index` cannot be used for texturing: its image does not match its intrinsics, or
    /// it is empty.
    case invalidTextureView(index: Int, reason: String)
    /// A texturing option is out of range; says which and what it must be.
    case invalidTexturingOption(String)
    /// The charts do not fit in the atlas even at the smallest scale: too many charts for the
    /// texture size and padding. Use a larger `textureSize` or a simpler mesh.
    case atlasTooSmall(charts: Int, textureSize: Int)

    /// The sentence a tool shows after its own prefix.

    public var description: String {
        switch self {
        case .unreadableImage(let error): return error.description
        case .imageTooSmall(let width, let height, let minimumSide):
            return "image is \(width)×\(height) pixels, too small to find features in (at least \(minimumSide) pixels on each side)"
        case .invalidSetting(let name, let reason): return "\(name) \(reason)"
        case .invalidMask(let why): return "unusable feature mask: \(why)"
        case .notEnoughImages(let usable, let skipped):
            return "only \(usable) usable photo\(usable == 1 ? "" : "s") (at least 3 needed)" + Self.causes(skipped)
        case .noSurface(let points):
            return "multi-view stereo found too little surface to mesh (\(points) dense points): the photos may be too few, too far apart, blurred, or of a plain, untextured garment"
        case .invalidModel(let why): return "cannot read the saved model: \(why)"
        case .texturingFailed(let why): return "cannot texture the mesh: \(why)"
        case .unwritableCheckpoint(let directory, let file, let reason, _): return "\(directory): cannot save the checkpoint (\(file)): \(reason)"
        case .nothingRegistered(let reasons):
            return "no two photos could be aligned" + Self.causes(reasons)
        case .inconsistentBundleAdjustmentProblem(let why): return "inconsistent bundle adjustment problem: \(why)"
        case .noPhotosToTexture: return "no photos to texture from"
        case .emptyMesh: return "the mesh has no triangles"
        case .inconsistentMesh(let why): return "inconsistent mesh: \(why)"
        case .textureEncoding(let why): return "could not encode the texture: \(why)"
        case .invalidTextureView(let index, let reason): return "photo \(index): \(reason)"
        case .invalidTexturingOption(let why): return why
        case .atlasTooSmall(let charts, let size):
            return "\(charts) charts do not fit in a \(size)×\(size) texture; use a larger texture size"
        }
    }

    /// Each cause once, with the photos it concerns ("; img_0001.jpg–img_0030.jpg: no verified matches").
    private static func causes(_ skipped: [SkippedImage]) -> String {
        SkippedCause.grouping(skipped).map { "; " + $0.description }.joined()
    }
}
