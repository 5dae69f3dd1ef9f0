import AtelierRecords

/// A textured mesh read from its files, as `atl-reconstruct` leaves it in `mesh/`: the PLY and
/// the texture its header names, which must lie beside it (a name in the file is not a path to
/// follow, so `../../etc/x.png` is read as `x.png` next to the mesh).
public enum MeshFile {
    /// Why the files could not be read; each case keeps the underlying error, so a tool can
    /// word it and choose the exit code.
    public enum Failure: Error, Sendable {
        case mesh(RecordsError)
        case format(FormatError)
        case texture(path: String, RecordsError)
    }

    /// The mesh at `path` with its texture's bytes (when the PLY names one and has texture
    /// coordinates), named "Garment".
    public static func read(_ path: String) throws(Failure) -> TexturedMesh {
        let bytes: [UInt8]
        do throws(RecordsError) { bytes = try RegularFile.read(path) } catch { throw .mesh(error) }
        var (mesh, textureFile): (TexturedMesh, String?)
        do throws(FormatError) { (mesh, textureFile) = try PLYMeshReader.read(bytes) } catch { throw .format(error) }
        if let textureFile, !mesh.textureCoordinates.isEmpty {
            let name = textureFile.split(separator: "/").last.map(String.init) ?? textureFile
            let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
            let texturePath = directory + name
            do throws(RecordsError) { mesh.texturePNG = try RegularFile.read(texturePath) } catch { throw .texture(path: texturePath, error) }
        }
        mesh.name = "Garment"
        return mesh
    }
}
