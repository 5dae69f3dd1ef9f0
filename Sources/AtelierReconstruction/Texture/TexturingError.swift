/// Why a mesh could not be textured.
public enum TexturingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No photos were given.
    case noViews
    /// The mesh has no triangles (or no vertices).
    case emptyMesh
    /// The mesh's arrays disagree (`TexturedMesh.inconsistency` says how).
    case inconsistentMesh(String)
    /// The atlas could not be encoded as PNG; carries the encoder's message.
    case encoding(String)
    /// Photo `index` cannot be used: its image does not match its intrinsics, or it is empty.
    case invalidView(index: Int, reason: String)
    /// An option is out of range; says which and what it must be.
    case invalidOption(String)
    /// The charts do not fit in the atlas even at the smallest scale: too many charts for the
    /// texture size and padding. Use a larger `textureSize` or a simpler mesh.
    case atlasTooSmall(charts: Int, textureSize: Int)

    public var description: String {
        switch self {
        case .noViews: return "no photos to texture from"
        case .emptyMesh: return "the mesh has no triangles"
        case .inconsistentMesh(let why): return "inconsistent mesh: \(why)"
        case .encoding(let why): return "could not encode the texture: \(why)"
        case .invalidView(let index, let reason): return "photo \(index): \(reason)"
        case .invalidOption(let why): return why
        case .atlasTooSmall(let charts, let size):
            return "\(charts) charts do not fit in a \(size)×\(size) texture; use a larger texture size"
        }
    }
}
