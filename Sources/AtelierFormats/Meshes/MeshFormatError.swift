/// Why a mesh could not be written.
public enum MeshFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The mesh's arrays do not agree (`TexturedMesh.inconsistency` says how).
    case inconsistentMesh(String)
    /// The file would pass a limit of its format (a 4 GiB glTF buffer, 2³² vertices).
    case tooLarge(String)

    public var description: String {
        switch self {
        case .inconsistentMesh(let why): return "inconsistent mesh: \(why)"
        case .tooLarge(let why): return "mesh too large for the format: \(why)"
        }
    }
}
