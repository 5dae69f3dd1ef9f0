/// Why a mesh could not be written or read.
public enum MeshFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The mesh's arrays do not agree (`TexturedMesh.inconsistency` says how).
    case inconsistentMesh(String)
    /// The file would pass a limit of its format (a 4 GiB glTF buffer, 2³² vertices).
    case tooLarge(String)
    /// A file that is not a mesh this reader understands, or is damaged; says what and where.
    case malformed(String)

    public var description: String {
        switch self {
        case .inconsistentMesh(let why): return "inconsistent mesh: \(why)"
        case .tooLarge(let why): return "mesh too large for the format: \(why)"
        case .malformed(let why): return "not a readable mesh: \(why)"
        }
    }
}
